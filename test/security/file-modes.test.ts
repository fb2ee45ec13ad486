import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import { withLock, writeFileAtomic } from '../../src/rungs/file/index.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { tempDir } from '../support/temp.js';
import { SECRET_CANARY } from './support.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** A tool whose result is larger than its cap: the full result goes to an overflow file. */
const bigRead = defineTool({
  name: 'big_read',
  description: 'Returns many rows.',
  rung: 'api',
  input: z.strictObject({}),
  output: z.object({ rows: z.array(z.string()) }),
  cap: { chars: 2_000, rows: 10, narrow: 'Ask for fewer rows.' },
  effect: { class: 'read' },
  timeout: { deadlineMs: 5_000 },
  example: {},
  run: async () => ({
    fields: { rows: Array.from({ length: 500 }, (_, i) => `row ${i}`) },
    summary: '500 rows',
  }),
});

describe('files Lift writes are owner-only', () => {
  const dir = tempDir('lift-modes-');
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = new Runtime({ home: join(dir.path, 'home'), workingDir: dir.path, tools: [bigRead] });
    runtime.store.secrets.set('api_token', SECRET_CANARY);
    await runtime.invoke('big_read', {});
  });
  afterAll(async () => {
    await runtime.close();
    dir.remove();
  });

  it("Lift's home, its database, secrets and run logs", async () => {
    await runtime.close();
    runtime = new Runtime({ home: join(dir.path, 'home'), workingDir: dir.path, tools: [bigRead] });
    expect(modeOf(runtime.home)).toBe(0o700);
    for (const file of ['lift.db', 'secrets.json'])
      expect(modeOf(join(runtime.home, file)), file).toBe(0o600);
    const logs = readdirSync(join(runtime.home, 'runs'));
    expect(logs.length).toBeGreaterThan(0);
    for (const log of logs) expect(modeOf(join(runtime.home, 'runs', log)), log).toBe(0o600);
    expect(modeOf(join(runtime.home, 'runs'))).toBe(0o700);
  });

  it('the overflow file of a capped result', () => {
    const files = readdirSync(runtime.overflowDir);
    expect(files).toHaveLength(1);
    expect(modeOf(runtime.overflowDir)).toBe(0o700);
    expect(modeOf(join(runtime.overflowDir, files[0]!))).toBe(0o600);
  });

  it('atomic writes and locks (the file rung: payroll imports, journals)', async () => {
    const target = join(dir.path, 'hours.csv');
    await writeFileAtomic(target, 'employee_id,date,hours\n');
    expect(modeOf(target)).toBe(0o600);
    const lock = join(dir.path, 'hours.lock');
    await withLock(lock, { deadline: Date.now() + 5_000 }, async () => {
      expect(modeOf(lock)).toBe(0o600);
    });
  });

  it("an atomic replacement keeps the replaced file's mode when asked to", async () => {
    const journal = join(dir.path, 'main.journal');
    await writeFileAtomic(journal, 'one\n', { mode: 0o640 });
    expect(modeOf(journal)).toBe(0o640);
  });
});
