import { spawn } from 'node:child_process';
import { existsSync, readdirSync, watch } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payrollTools } from '../../../src/apps/payroll/tools.js';
import { type PayrollDaemon, startPayrollDaemon } from '../../../src/fixtures/payroll/start.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';
import { entries, failure, filesOpened, success } from './support.js';

const root = tempDir('lift-payroll-kill-');
const home = tempDir('lift-payroll-kill-home-');
let daemon: PayrollDaemon;

beforeAll(async () => {
  daemon = await startPayrollDaemon({ root: root.path, pollMs: 200, exportMs: 1_000 });
});
afterAll(async () => {
  await daemon?.stop();
  root.remove();
  home.remove();
});

/** Starts the import in a child process and kills it with SIGKILL the moment its temporary file appears. */
async function killMidWrite(requestId: string, rows: number): Promise<string> {
  const inbox = join(root.path, 'inbox');
  const script = join(import.meta.dirname, 'fixtures', 'import-child.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, home.path, root.path, requestId, String(rows)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the writer never started writing: ${output}`)), 30_000);
    const watcher = watch(inbox, (_event, name) => {
      if (name?.startsWith('.hours-')) {
        child.kill('SIGKILL');
        watcher.close();
        clearTimeout(timer);
        resolve();
      }
    });
  });
  await exited;
  return output;
}

describe('an import whose writer is killed with -9 mid-write', () => {
  it('never shows the program a half-written file, and a retry never imports twice', async () => {
    const output = await killMidWrite('killed-import', 5_000);
    expect(output).not.toContain('"ok"');
    const runtime = new Runtime({
      home: home.path,
      tools: payrollTools({ root: root.path, importDeadlineMs: 120_000 }),
    });
    try {
      // Let the program poll a few times; a visible half file would be imported now.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(filesOpened(root.path).filter((name) => name.startsWith('.'))).toEqual([]);
      // The same request id in the same Lift: the ledger knows the writer died mid-call.
      const retry = failure(
        await runtime.invoke('payroll_import_hours', {
          request_id: 'killed-import',
          entries: entries(5_000, 0, 2025),
        }),
      );
      expect(retry.code).toBe('OUTCOME_UNKNOWN');
      expect(retry.settle).toContain('payroll_export_read');
      // The settle read the contract names: rows with batch = request id.
      const settle = success(
        await runtime.invoke('payroll_export_read', {
          filters: [{ column: 'batch', op: 'eq', value: 'killed-import' }],
          limit: 1,
        }),
      );
      const landed = settle.fields.matched as number;
      expect([0, 5_000]).toContain(landed);
      const landedFile = existsSync(join(root.path, 'done', 'hours-killed-import.csv'));
      expect(landedFile).toBe(landed === 5_000);
      if (landed === 0) {
        // It never landed: import again under a new request id, once.
        const again = success(
          await runtime.invoke('payroll_import_hours', {
            request_id: 'killed-import-2',
            entries: entries(5_000, 0, 2025),
          }),
        );
        expect(again.fields.imported).toBe(5_000);
      }
      // Whatever happened, the dead writer's temporary file is gone once a writer has run, and no
      // employee-day was booked twice.
      const all = success(
        await runtime.invoke('payroll_export_read', {
          filters: [{ column: 'employee_id', op: 'eq', value: 'E0001' }],
          limit: 200,
        }),
      );
      const days = (all.fields.rows as Array<{ work_date: string }>).map((row) => row.work_date);
      expect(new Set(days).size).toBe(days.length);
      expect(all.fields.matched).toBe(100);
      if (landed === 0) expect(readdirSync(join(root.path, 'inbox'))).toEqual([]);
    } finally {
      await runtime.close();
    }
  }, 240_000);
});
