import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('timeouts in src/', () => {
  it('pass AbortSignal.timeout straight to the call it bounds, never into a composite', () => {
    // On Node 20 a composite does not keep a timeout source alive: a collection loses the
    // timeout (nodejs/node#57736). contract/timeout-signal.ts combines a deadline safely.
    const misuses = sourceFiles(SRC).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, index) => ({ line: line.trim(), at: `${relative(SRC, file)}:${index + 1}` }))
        .filter(
          ({ line }) =>
            line.includes('AbortSignal.timeout(') && !/^signal: AbortSignal\.timeout\(/.test(line),
        )
        .map(({ at, line }) => `${at}: ${line}`),
    );
    expect(misuses).toEqual([]);
  });
});
