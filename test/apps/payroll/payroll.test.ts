import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PayrollDaemon, startPayrollDaemon } from '../../../src/fixtures/payroll/start.js';
import { tempDir } from '../../support/temp.js';
import { entries, failure, filesOpened, holdLock, payrollRuntime, success } from './support.js';

const root = tempDir('lift-payroll-');
let daemon: PayrollDaemon;
let lift: ReturnType<typeof payrollRuntime>;

beforeAll(async () => {
  daemon = await startPayrollDaemon({ root: root.path, pollMs: 300, exportMs: 1_000 });
  lift = payrollRuntime(root.path);
});
afterAll(async () => {
  await lift?.close();
  await daemon?.stop();
  root.remove();
});

const batchRows = async (requestId: string) =>
  success(
    await lift.runtime.invoke('payroll_export_read', {
      filters: [{ column: 'batch', op: 'eq', value: requestId }],
      limit: 1,
    }),
  ).fields.matched as number;

describe('payroll_import_hours', () => {
  it('imports through the inbox and reads the count back from the next export', async () => {
    const envelope = success(
      await lift.runtime.invoke('payroll_import_hours', { request_id: 'first-import', entries: entries(3) }),
    );
    expect(envelope.ok).toBe(true);
    expect(envelope.effect).toBe('changed');
    expect(envelope.fields).toMatchObject({ imported: 3, batch_rows_before: 0, batch_rows_after: 3 });
    expect((envelope.fields.records_after as number) - (envelope.fields.records_before as number)).toBe(3);
    expect(envelope.verified_by).toContain('payroll export');
    expect(existsSync(join(root.path, 'done', 'hours-first-import.csv'))).toBe(true);
  });

  it('does not import twice when retried, with the ledger or with only the folders to go by', async () => {
    const input = { request_id: 'retried-import', entries: entries(2, 10) };
    success(await lift.runtime.invoke('payroll_import_hours', input));
    const again = success(await lift.runtime.invoke('payroll_import_hours', input));
    expect(again.effect).toBe('existing');
    // A Lift with an empty ledger (another machine, a lost home): the file name carries the request id.
    const other = payrollRuntime(root.path);
    try {
      const fromFolders = success(await other.runtime.invoke('payroll_import_hours', input));
      expect(fromFolders.effect).toBe('existing');
      expect(fromFolders.fields.imported).toBe(2);
    } finally {
      await other.close();
    }
    expect(await batchRows('retried-import')).toBe(2);
  });

  it('reports a partial import as PARTIAL_IMPORT with the rows the program rejected', async () => {
    const error = failure(
      await lift.runtime.invoke('payroll_import_hours', {
        request_id: 'partial-import',
        entries: [
          { employee_id: 'E0001', date: '2026-03-02', hours: 8 },
          { employee_id: 'E9999', date: '2026-03-02', hours: 8 },
          { employee_id: 'E0002', date: '2026-03-02', hours: 20 },
          { employee_id: 'E0002', date: '2026-03-02', hours: 6 },
        ],
      }),
    );
    expect(error.code).toBe('PARTIAL_IMPORT');
    expect(error.retry).toBe('after_check');
    expect(error.details).toMatchObject({ accepted: 2, rejected_count: 2, batch_rows_after: 2 });
    expect(error.details?.rejected).toEqual([
      { line: 3, employee_id: 'E9999', date: '2026-03-02', hours: '8', reason: 'unknown employee E9999' },
      {
        line: 5,
        employee_id: 'E0002',
        date: '2026-03-02',
        hours: '6',
        reason: 'more than 24 hours on 2026-03-02',
      },
    ]);
    expect(await batchRows('partial-import')).toBe(2);
  });

  it('rejects bad input before any file is written', async () => {
    const before = readdirSync(join(root.path, 'done')).length;
    for (const bad of [
      { employee_id: 'X1', date: '2026-03-02', hours: 8 },
      { employee_id: 'E0001', date: '2026-02-30', hours: 8 },
      { employee_id: 'E0001', date: '2026-03-02', hours: 25 },
      { employee_id: 'E0001', date: '2026-03-02', hours: 7.3 },
    ]) {
      const error = failure(
        await lift.runtime.invoke('payroll_import_hours', { request_id: 'bad-input-1', entries: [bad] }),
      );
      expect(error.code).toBe('BAD_INPUT');
      expect(error.outcome).toBe('not_started');
    }
    const noId = failure(await lift.runtime.invoke('payroll_import_hours', { entries: entries(1) }));
    expect(noId.code).toBe('BAD_INPUT');
    expect(readdirSync(join(root.path, 'inbox'))).toEqual([]);
    expect(readdirSync(join(root.path, 'done')).length).toBe(before);
  });

  it('waits for a lock a person holds, then times out with outcome not_started and writes nothing', async () => {
    const holder = await holdLock(join(root.path, 'payroll.lock'));
    const short = payrollRuntime(root.path, { importDeadlineMs: 1_500 });
    try {
      const input = { request_id: 'locked-import', entries: entries(1, 40) };
      const error = failure(await short.runtime.invoke('payroll_import_hours', input));
      expect(error.code).toBe('TIMEOUT');
      expect(error.outcome).toBe('not_started');
      expect(readdirSync(join(root.path, 'inbox'))).toEqual([]);
      holder.kill('SIGTERM');
      await new Promise((resolve) => holder.once('exit', resolve));
      // Nothing happened, so the same request may run again and now lands once.
      const later = success(await lift.runtime.invoke('payroll_import_hours', input));
      expect(later.effect).toBe('changed');
    } finally {
      holder.kill('SIGKILL');
      await short.close();
    }
  });

  it('never lets the program open a temporary or dot file', () => {
    const opened = filesOpened(root.path);
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.filter((name) => name.startsWith('.') || name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('payroll_export_read', () => {
  it('filters on named columns, caps the rows and says how to narrow', async () => {
    const envelope = success(
      await lift.runtime.invoke('payroll_export_read', {
        filters: [{ column: 'work_date', op: 'gte', value: '2026-01-01' }],
        limit: 2,
      }),
    );
    expect(envelope.fields.rows).toHaveLength(2);
    expect(envelope.fields.matched as number).toBeGreaterThan(2);
    expect(envelope.truncated).toBe(true);
    expect(envelope.narrow).toContain('employee_id (string)');
    expect(envelope.as_of).toBe(envelope.fields.as_of);
    expect(envelope.fields.stale).toBe(false);
  });

  it('flags the export stale when the schedule stops', async () => {
    writeFileSync(join(root.path, 'settings.json'), JSON.stringify({ exports: false }));
    const strict = payrollRuntime(root.path, { maxExportAgeSeconds: 1 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const envelope = success(await strict.runtime.invoke('payroll_export_read', { limit: 1 }));
      expect(envelope.fields.stale).toBe(true);
      expect(envelope.fields.age_seconds as number).toBeGreaterThan(1);
      expect(envelope.summary).toContain('STALE');
    } finally {
      writeFileSync(join(root.path, 'settings.json'), JSON.stringify({ exports: true }));
      await strict.close();
    }
  });

  it('returns SURFACE_CHANGED naming the renamed column, for reads and for imports', async () => {
    writeFileSync(join(root.path, 'settings.json'), JSON.stringify({ header: 'v2' }));
    try {
      // The next scheduled export (within a second) has the new header.
      let envelope = await lift.runtime.invoke('payroll_export_read', { limit: 1 });
      for (let attempt = 0; !('error' in envelope) && attempt < 50; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        envelope = await lift.runtime.invoke('payroll_export_read', { limit: 1 });
      }
      const error = failure(envelope);
      expect(error.code).toBe('SURFACE_CHANGED');
      expect(error.message).toContain("column 'work_date' is now named 'date_worked'");
      const importError = failure(
        await lift.runtime.invoke('payroll_import_hours', {
          request_id: 'after-rename',
          entries: entries(1, 60),
        }),
      );
      expect(importError.code).toBe('SURFACE_CHANGED');
      expect(existsSync(join(root.path, 'inbox', 'hours-after-rename.csv'))).toBe(false);
    } finally {
      writeFileSync(join(root.path, 'settings.json'), JSON.stringify({ header: 'v1' }));
    }
  });
});
