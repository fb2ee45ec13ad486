import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { FilterSchema, narrowHint, readExport } from '../../rungs/file/index.js';
import { hoursExport, type PayrollSettings, payrollSettings } from './settings.js';
// Declares the events this file emits, with their words (a run log's readers find them there).
import './events.js';

const RowSchema = z.object({
  employee_id: z.string().nullable().describe('E followed by 4 digits, e.g. E0042.'),
  work_date: z.string().nullable().describe('YYYY-MM-DD.'),
  hours: z.number().nullable().describe('Hours worked that day.'),
  batch: z.string().nullable().describe('The request_id of the import that brought the row.'),
});

export function payrollExportRead(settings?: PayrollSettings) {
  return defineTool({
    name: 'payroll_export_read',
    title: 'Read hours from the payroll export',
    description:
      'Reads the newest scheduled hours export of the payroll program. Returns the rows matching the filters (at most `limit`), how many matched in all, and when the export was made (as_of, stale when older than the schedule promises).',
    group: 'payroll',
    rung: 'file',
    ladder: {
      ruledOut: ['api: not present', 'cli: not present'],
      stepDown: 'the program stops writing its scheduled export',
      climb: 'the vendor ships a query API or command',
    },
    input: z.strictObject({
      filters: z.array(FilterSchema).max(8).default([]).describe('Conditions a row must all meet.'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(200)
        .default(50)
        .describe('Most rows to return; all matches are counted.'),
    }),
    output: z.object({
      file: z.string().describe('Path of the export read.'),
      as_of: z.string().describe('ISO 8601 time the export was made.'),
      as_of_source: z
        .enum(['export', 'file_mtime'])
        .describe("Where as_of comes from: the export's name, or its file time."),
      age_seconds: z.number().describe('Age of the export.'),
      max_age_seconds: z.number().describe('Age the schedule promises not to exceed.'),
      stale: z.boolean().describe('True when older than max_age_seconds.'),
      columns: z.array(z.string()).describe('Column headers of the export.'),
      rows: z.array(RowSchema).describe('Matching rows, at most limit.'),
      matched: z.number().int().describe('Rows that matched, returned or not.'),
      scanned: z.number().int().describe('Rows read from the file.'),
      truncated: z.boolean().describe('True when more rows matched than were returned.'),
    }),
    cap: { chars: 20_000, narrow: 'Add filters on employee_id, work_date, hours or batch.' },
    errors: {
      NOT_FOUND: {
        retry: 'yes',
        hint: 'The payroll program has not written an export yet. Wait for its schedule (a few seconds), then read again.',
      },
      NOT_CONFIGURED: { hint: 'The operator sets the payroll folder in lift.config settings.payroll.root.' },
    },
    effect: { class: 'read' },
    timeout: { deadlineMs: 120_000 },
    example: { filters: [{ column: 'employee_id', op: 'eq', value: 'E0001' }], limit: 20 },
    run: async (input, ctx) => {
      const contract = hoursExport(await payrollSettings(ctx, settings));
      const read = await readExport(contract, {
        filters: input.filters,
        limit: input.limit,
        signal: ctx.signal,
      });
      ctx.emit({
        type: 'export-read',
        file: read.file,
        as_of: read.as_of,
        matched: read.matched,
        scanned: read.scanned,
      });
      const staleText = read.stale ? `, STALE (older than ${read.max_age_seconds} s)` : '';
      // The header check guarantees these four columns; the output schema checks it again.
      const rows = read.rows as Array<z.infer<typeof RowSchema>>;
      return {
        fields: { ...read, rows },
        summary: `${read.matched} of ${read.scanned} rows match in the export as of ${read.as_of}${staleText}; ${read.rows.length} returned.`,
        asOf: read.as_of,
        verifiedBy: `parsed ${read.file} (header checked against the contract)`,
        ...(read.truncated ? { truncated: true, narrow: narrowHint(contract) } : {}),
      };
    },
  });
}
