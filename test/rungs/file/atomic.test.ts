import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isTempName, removeDeadTemps, writeFileAtomic } from '../../../src/rungs/file/index.js';
import { tempDir } from '../../support/temp.js';

const dir = tempDir('lift-atomic-');
afterAll(() => dir.remove());

describe('atomic writes', () => {
  it('replaces a file whole, keeps its mode, and leaves no temporary file', async () => {
    const target = join(dir.path, 'whole.csv');
    await writeFileAtomic(target, 'a\n', { mode: 0o600 });
    await writeFileAtomic(target, ['a\n', 'b\n'], { mode: 0o600 });
    expect(readFileSync(target, 'utf8')).toBe('a\nb\n');
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir.path).filter(isTempName)).toEqual([]);
  });

  it('never shows a half-written file when the writer is killed with -9 mid-write', async () => {
    const inbox = join(dir.path, 'inbox');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(inbox);
    const target = join(inbox, 'hours-killed.csv');
    const writer = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'slow-writer.ts'), target],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    // What a watched-folder program would list while the writer runs.
    const seen = new Set<string>();
    const watcher = setInterval(() => {
      for (const name of readdirSync(inbox)) if (!name.startsWith('.')) seen.add(name);
    }, 5);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the writer never wrote its first chunk')), 20_000);
      writer.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('first chunk written')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const temps = readdirSync(inbox).filter(isTempName);
    expect(temps).toHaveLength(1);
    expect(statSync(join(inbox, temps[0] as string)).size).toBeGreaterThan(0);
    writer.kill('SIGKILL');
    await new Promise((resolve) => writer.once('exit', resolve));
    clearInterval(watcher);
    expect(existsSync(target)).toBe(false);
    expect(seen.size).toBe(0);
    // The next writer clears the dead writer's leftovers.
    expect(removeDeadTemps(inbox)).toEqual(temps);
    expect(readdirSync(inbox)).toEqual([]);
  });
});
