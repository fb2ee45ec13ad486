import { describe, expect, it } from 'vitest';
import type { CapturedStream } from '../../../src/rungs/cli/capture.js';
import { parseOutput } from '../../../src/rungs/cli/parsers.js';
import { runWrapped } from '../../../src/rungs/cli/run-wrapped.js';
import { failure } from './helpers.js';

async function stdoutOf(script: string, cap?: number): Promise<CapturedStream> {
  const result = await runWrapped({
    program: 'python3',
    args: ['-c', script],
    deadline: Date.now() + 20_000,
    ...(cap ? { cap } : {}),
  });
  return result.stdout;
}

async function surfaceChanged(run: () => unknown) {
  return failure(Promise.resolve().then(run));
}

describe('parsers', () => {
  it('json: reads a document; anything else is SURFACE_CHANGED with a sample', async () => {
    expect(parseOutput('p', await stdoutOf('print(\'{"on_hand": 4}\')'), { kind: 'json' }).value).toEqual({
      on_hand: 4,
    });
    const { error } = await surfaceChanged(async () =>
      parseOutput('p', await stdoutOf('print("Welcome to Inventory 2.0")'), { kind: 'json' }),
    );
    expect(error.code).toBe('SURFACE_CHANGED');
    expect(error.hint).toContain('Welcome to Inventory 2.0');
  });

  it('csv: checks the header, so a renamed column is SURFACE_CHANGED', async () => {
    const good = await stdoutOf('print("sku,name\\nA-1,\\"Bolt, M4\\"")');
    expect(parseOutput('p', good, { kind: 'csv', columns: ['sku', 'name'] }).value).toEqual([
      { sku: 'A-1', name: 'Bolt, M4' },
    ]);
    const renamed = await stdoutOf('print("sku,title\\nA-1,Bolt")');
    const { error } = await surfaceChanged(() =>
      parseOutput('p', renamed, { kind: 'csv', columns: ['sku', 'name'] }),
    );
    expect(error.code).toBe('SURFACE_CHANGED');
    expect(error.message).toContain('header');
  });

  it('regex: named groups per line; a line that no longer matches is SURFACE_CHANGED', async () => {
    const parser = { kind: 'regex' as const, pattern: /^(?<name>\S+)\s+(?<state>RUNNING|STOPPED)/ };
    expect(parseOutput('p', await stdoutOf('print("web   RUNNING   pid 4")'), parser).value).toEqual([
      { name: 'web', state: 'RUNNING' },
    ]);
    const { error } = await surfaceChanged(async () =>
      parseOutput('p', await stdoutOf('print("web   up (healthy)")'), parser),
    );
    expect(error.code).toBe('SURFACE_CHANGED');
  });

  it('columns: cuts a human table at the header titles, skipping rules', async () => {
    const table =
      'print("SKU     NAME          QTY\\n------  ------------  ---\\nA-1     Bolt M4       12\\nB-22    Washer        3")';
    const parsed = parseOutput('p', await stdoutOf(table), {
      kind: 'columns',
      header: ['SKU', 'NAME', 'QTY'],
    });
    expect(parsed.value).toEqual([
      { SKU: 'A-1', NAME: 'Bolt M4', QTY: '12' },
      { SKU: 'B-22', NAME: 'Washer', QTY: '3' },
    ]);
    const { error } = await surfaceChanged(async () =>
      parseOutput('p', await stdoutOf('print("CODE  NAME  COUNT")'), {
        kind: 'columns',
        header: ['SKU', 'NAME', 'QTY'],
      }),
    );
    expect(error.code).toBe('SURFACE_CHANGED');
  });

  it('lines: a capped output parses only its complete leading lines and says it was truncated', async () => {
    const parsed = parseOutput('p', await stdoutOf('for i in range(10000): print("line", i)', 2_000), {
      kind: 'lines',
    });
    expect(parsed.truncated).toBe(true);
    const lines = parsed.value as string[];
    expect(lines[0]).toBe('line 0');
    expect(lines.every((line) => /^line \d+$/.test(line))).toBe(true);
  });
});
