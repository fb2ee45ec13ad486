import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { defineTool } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import {
  type ExportContract,
  type ExportFile,
  listExports,
  pollUntil,
  readExport,
  removeDeadTemps,
  withLock,
  writeFileAtomic,
} from '../../rungs/file/index.js';
import { hoursExport, type PayrollSettings, payrollFile, payrollPaths, payrollSettings } from './settings.js';
// Declares the events this file emits, with their words (a run log's readers find them there).
import './events.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isCalendarDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

const EntrySchema = z.strictObject({
  employee_id: z
    .string()
    .regex(/^E\d{4}$/, 'an employee id such as E0042')
    .describe('E and 4 digits, e.g. E0042.'),
  date: z
    .string()
    .regex(DATE, 'a date YYYY-MM-DD')
    .refine(isCalendarDate, 'a real calendar date')
    .describe('Day worked, YYYY-MM-DD.'),
  hours: z.number().gt(0).max(24).multipleOf(0.25).describe('Hours worked, in quarter hours: 7.5.'),
});

const RejectedSchema = z.object({
  line: z.number().int(),
  employee_id: z.string(),
  date: z.string(),
  hours: z.string(),
  reason: z.string(),
});
type Rejected = z.infer<typeof RejectedSchema>;

interface BatchCount {
  total: number;
  batch: number;
  as_of: string;
}

async function countBatch(
  contract: ExportContract,
  batch: string,
  signal: AbortSignal,
  file?: ExportFile,
): Promise<BatchCount> {
  const read = await readExport(contract, {
    filters: [{ column: 'batch', op: 'eq', value: batch }],
    limit: 0,
    signal,
    ...(file ? { file } : {}),
  });
  return { total: read.scanned, batch: read.matched, as_of: read.as_of };
}

/** The rows the payroll program rejected, from its error report (line,employee_id,date,hours,reason). */
function rejectedRows(path: string): Rejected[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [lineNo = '0', employee_id = '', date = '', hours = '', ...reason] = line.split(',');
      return { line: Number(lineNo), employee_id, date, hours, reason: reason.join(',') };
    });
}

function* csvOf(entries: ReadonlyArray<z.infer<typeof EntrySchema>>): Generator<string> {
  yield 'employee_id,date,hours\n';
  for (let index = 0; index < entries.length; index += 500) {
    yield entries
      .slice(index, index + 500)
      .map((entry) => `${entry.employee_id},${entry.date},${entry.hours}\n`)
      .join('');
  }
}

function settleFor(requestId: string): string {
  return `payroll_export_read with filters [{"column":"batch","op":"eq","value":"${requestId}"}]: rows there mean the import landed`;
}

async function importHours(
  settings: PayrollSettings,
  input: { request_id: string; entries: Array<z.infer<typeof EntrySchema>> },
  ctx: ToolContext,
) {
  const paths = payrollPaths(settings);
  const contract = hoursExport(settings);
  const name = `hours-${input.request_id}.csv`;
  const settle = settleFor(input.request_id);
  const landed = () => existsSync(join(paths.inbox, name)) || existsSync(join(paths.done, name));

  // The request id is in the file name, so the folders themselves say whether this import was sent.
  const alreadySent = landed();
  const before = await pollUntil(
    () =>
      listExports(contract.dir, contract.pattern).length > 0
        ? countBatch(contract, input.request_id, ctx.signal)
        : undefined,
    {
      deadline: ctx.deadline,
      signal: ctx.signal,
      waitingFor: 'the payroll program to write its first export',
      outcome: 'not_started',
    },
  );
  let written = false;
  if (!alreadySent) {
    await withLock(
      paths.lock,
      { deadline: ctx.deadline, signal: ctx.signal, purpose: 'lift payroll_import_hours' },
      async () => {
        if (landed()) return;
        const cleared = removeDeadTemps(paths.inbox);
        if (cleared.length > 0) ctx.emit({ type: 'temp-removed', files: cleared });
        const target = join(paths.inbox, name);
        const bytes = await writeFileAtomic(target, csvOf(input.entries), {
          beforeRename: () => ctx.markStarted(),
        });
        written = true;
        ctx.emit({ type: 'file-written', path: target, bytes, rows: input.entries.length });
      },
    );
  } else {
    ctx.emit({ type: 'file-already-sent', file: name });
  }

  const done = join(paths.done, name);
  const importedAt = await pollUntil(() => (existsSync(done) ? statSync(done).mtime : undefined), {
    deadline: ctx.deadline,
    signal: ctx.signal,
    intervalMs: 100,
    waitingFor: `the payroll program to import ${name}`,
    outcome: written || alreadySent ? 'unknown' : 'not_started',
    settle,
  });
  const rejected = rejectedRows(
    payrollFile(ctx, settings, join(paths.errors, name.replace(/\.csv$/, '.errors.csv'))),
  );
  // The first export made after the import is the read-back.
  const exportAfter = await pollUntil(
    () =>
      listExports(contract.dir, contract.pattern, contract.asOfFromName).find(
        (file) => file.asOf.getTime() >= Math.floor(importedAt.getTime()),
      ),
    {
      deadline: ctx.deadline,
      signal: ctx.signal,
      intervalMs: 100,
      waitingFor: 'an export made after the import',
      outcome: 'unknown',
      settle,
    },
  );
  const after = await countBatch(contract, input.request_id, ctx.signal, exportAfter);
  const accepted = after.batch;
  const counts = {
    records_before: before.total,
    records_after: after.total,
    batch_rows_before: before.batch,
    batch_rows_after: after.batch,
  };
  if (rejected.length > 0) {
    throw new LiftError(
      'PARTIAL_IMPORT',
      `Payroll imported ${accepted} of ${input.entries.length} rows from ${name}; it rejected ${rejected.length}.`,
      {
        hint: `Fix the rejected rows (${rejected
          .slice(0, 3)
          .map((row) => `line ${row.line}: ${row.reason}`)
          .join(
            '; ',
          )}${rejected.length > 3 ? '; …' : ''}) and import those alone with a new request_id. The accepted rows stay imported.`,
        details: {
          file: done,
          accepted,
          rejected: rejected.slice(0, 200),
          rejected_count: rejected.length,
          ...counts,
          export_as_of: after.as_of,
        },
      },
    );
  }
  return {
    fields: {
      request_id: input.request_id,
      file: done,
      imported: accepted,
      ...counts,
      export_as_of: after.as_of,
    },
    summary: alreadySent
      ? `Import ${input.request_id} had already been sent; the export shows ${accepted} rows from it.`
      : `Payroll imported ${accepted} rows from ${name}; records went from ${before.total} to ${after.total}.`,
    effect: alreadySent ? ('existing' as const) : ('changed' as const),
    asOf: after.as_of,
    verifiedBy: `payroll export ${exportAfter.name} (file rung), counted rows with batch = ${input.request_id}`,
    checks: [
      {
        name: 'every row is in the export',
        passed: accepted === input.entries.length,
        detail: `${accepted} of ${input.entries.length} rows with batch ${input.request_id}`,
      },
    ],
  };
}

export function payrollImportHours(settings?: PayrollSettings) {
  return defineTool({
    name: 'payroll_import_hours',
    title: 'Import worked hours into payroll',
    description:
      "Sends worked hours to the payroll program through its watched inbox folder, waits for it to import them, and reads the count back from its next export. Returns the rows imported, the record counts before and after, and the effect; rows the program rejects come back as PARTIAL_IMPORT with the program's reasons.",
    group: 'payroll',
    rung: 'file',
    ladder: {
      ruledOut: ['api: not present', 'cli: not present'],
      stepDown: 'the inbox stops being read (files stay in inbox/) more than once',
      climb: 'the vendor ships an import API or command',
    },
    input: z.strictObject({
      request_id: RequestIdSchema,
      entries: z.array(EntrySchema).min(1).max(5_000).describe('Hours per employee and day.'),
    }),
    output: z.object({
      request_id: z.string().describe('The batch name the rows carry in the export.'),
      file: z.string().describe('Path of the import file, in the done folder.'),
      imported: z.number().int().describe('Rows of this batch in the export.'),
      records_before: z.number().int().describe('Rows in the export before.'),
      records_after: z.number().int().describe('Rows in the export after.'),
      batch_rows_before: z.number().int().describe('Rows of this batch before; above 0 on a repeat.'),
      batch_rows_after: z.number().int().describe('Rows of this batch after.'),
      export_as_of: z.string().describe('ISO 8601 time of the export read after.'),
    }),
    errors: {
      PARTIAL_IMPORT: {
        retry: 'after_check',
        hint: 'Some rows were rejected (listed in details.rejected with the reason). Fix them and import those alone with a new request_id.',
      },
      NOT_CONFIGURED: { hint: 'The operator sets the payroll folder in lift.config settings.payroll.root.' },
    },
    effect: {
      class: 'reversible',
      repeat:
        'The same request_id never imports twice: the file name carries it and the folders are checked first; the second call returns effect existing.',
    },
    timeout: {
      deadlineMs: settings?.importDeadlineMs ?? 30_000,
      settle: 'payroll_export_read with a filter batch = request_id: rows there mean the import landed',
    },
    preview: (input) =>
      `Import ${input.entries.length} hour rows into payroll (file hours-${input.request_id}.csv)`,
    example: {
      request_id: 'hours-2026-11-w48',
      entries: [{ employee_id: 'E0001', date: '2026-11-30', hours: 7.5 }],
    },
    run: async (input, ctx) => importHours(await payrollSettings(ctx, settings), input, ctx),
  });
}
