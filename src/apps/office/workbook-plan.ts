import { z } from 'zod';

const Name = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .refine((name) => !/[[\]!]/.test(name), 'a name may not contain [, ] or !');
const SheetName = z
  .string()
  .trim()
  .min(1)
  .max(31)
  .refine((name) => !/[[\]!:*?/\\']/.test(name), 'a sheet name may not contain [ ] ! : * ? / \\ or quotes');
const Formula = z.string().min(1).max(500);

export const COLUMN_TYPES = ['text', 'number', 'integer', 'percent', 'currency'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export const AGGREGATES = ['sum', 'average', 'min', 'max', 'count', 'median'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

export const ColumnSchema = z.union([
  Name,
  z.strictObject({
    name: Name.describe('Header; formulas name it as [Name].'),
    type: z
      .enum(COLUMN_TYPES)
      .optional()
      .describe("percent means a fraction (0.86 shows as 86.0%); a 0-100 score is 'number'"),
    formula: Formula.optional().describe("Computed per row from other columns: '[Qty] * [Price]'"),
  }),
]);

const Cell = z.union([z.string().max(500), z.number().finite(), z.boolean(), z.null()]);

export const TableSheetSchema = z.strictObject({
  name: SheetName.describe('Sheet tab name.'),
  kind: z.literal('table').describe('A table: typed columns, data rows, an optional total row.'),
  columns: z
    .array(ColumnSchema)
    .min(1)
    .max(40)
    .describe('Headers in order: a name, or {name, type?, formula?} for a typed or computed column.'),
  rows: z
    .array(z.array(Cell).max(40))
    .min(1)
    .max(500)
    .describe('Values of the data columns in order; computed columns may be left out or given as null'),
  total: z
    .record(Name, z.enum(AGGREGATES))
    .optional()
    .describe("A row under the data: { Maths: 'average', Total: 'sum' }"),
  total_label: z.string().max(60).optional().describe('Label of the total row (default "Total").'),
});

export const MetricSchema = z
  .strictObject({
    label: z.string().min(1).max(80).describe('Shown beside the value.'),
    formula: Formula.optional().describe("'MAX([Marks!Total])', 'COUNTIF([Marks!Grade], \"F\")'"),
    aggregate: z.enum(AGGREGATES).optional().describe('Applied to column; instead of formula.'),
    column: Name.optional().describe('A column of a table sheet, for aggregate.'),
    sheet: SheetName.optional().describe('The table sheet of column, when there are several.'),
    type: z.enum(COLUMN_TYPES).optional().describe('How the value is shown.'),
  })
  .refine(
    (metric) =>
      (metric.formula === undefined) !== (metric.aggregate === undefined || metric.column === undefined),
    {
      message: 'give either formula, or aggregate with column (and sheet when there are several tables)',
    },
  );

export const GroupSchema = z.strictObject({
  title: z.string().min(1).max(80).describe('Heading of the group and its chart.'),
  from: SheetName.optional().describe('The table sheet (default: the only one)'),
  label_column: Name.describe('Column whose values label the rows (and the chart axis).'),
  value_columns: z.array(Name).min(1).max(6).describe('Columns copied beside the labels and charted.'),
  chart: z.enum(['column', 'bar', 'line', 'pie', 'none']).default('column').describe('Chart type.'),
});

export const SummarySheetSchema = z.strictObject({
  name: SheetName.describe('Sheet tab name.'),
  kind: z.literal('summary').describe('A summary: single values and charted groups from table sheets.'),
  metrics: z
    .array(MetricSchema)
    .max(60)
    .default([])
    .describe('Labelled values: a formula, or an aggregate of a column.'),
  groups: z
    .array(GroupSchema)
    .max(6)
    .default([])
    .describe('Label and value columns copied from a table, charted.'),
});

export const WorkbookPlanSchema = z.strictObject({
  title: z.string().min(1).max(120).describe('Workbook title.'),
  file_name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,59}$/)
    .optional()
    .describe('Lower-case slug; default from the title'),
  sheets: z
    .array(z.discriminatedUnion('kind', [TableSheetSchema, SummarySheetSchema]))
    .min(1)
    .max(12)
    .describe('Sheets in tab order.'),
});

export type WorkbookPlan = z.infer<typeof WorkbookPlanSchema>;
export type TableSheet = z.infer<typeof TableSheetSchema>;
export type SummarySheet = z.infer<typeof SummarySheetSchema>;
export type Metric = z.infer<typeof MetricSchema>;
export type Group = z.infer<typeof GroupSchema>;

export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'document'
  );
}
