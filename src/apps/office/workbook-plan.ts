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
    name: Name,
    type: z
      .enum(COLUMN_TYPES)
      .optional()
      .describe("percent means a fraction (0.86 shows as 86.0%); a 0-100 score is 'number'"),
    formula: Formula.optional().describe("Computed per row from other columns: '[Qty] * [Price]'"),
  }),
]);

const Cell = z.union([z.string().max(500), z.number().finite(), z.boolean(), z.null()]);

export const TableSheetSchema = z.strictObject({
  name: SheetName,
  kind: z.literal('table'),
  columns: z.array(ColumnSchema).min(1).max(40),
  rows: z
    .array(z.array(Cell).max(40))
    .min(1)
    .max(500)
    .describe('Values of the data columns in order; computed columns may be left out or given as null'),
  total: z
    .record(Name, z.enum(AGGREGATES))
    .optional()
    .describe("A row under the data: { Maths: 'average', Total: 'sum' }"),
  total_label: z.string().max(60).optional(),
});

export const MetricSchema = z
  .strictObject({
    label: z.string().min(1).max(80),
    formula: Formula.optional().describe("'MAX([Marks!Total])', 'COUNTIF([Marks!Grade], \"F\")'"),
    aggregate: z.enum(AGGREGATES).optional(),
    column: Name.optional(),
    sheet: SheetName.optional(),
    type: z.enum(COLUMN_TYPES).optional(),
  })
  .refine(
    (metric) =>
      (metric.formula === undefined) !== (metric.aggregate === undefined || metric.column === undefined),
    {
      message: 'give either formula, or aggregate with column (and sheet when there are several tables)',
    },
  );

export const GroupSchema = z.strictObject({
  title: z.string().min(1).max(80),
  from: SheetName.optional().describe('The table sheet (default: the only one)'),
  label_column: Name,
  value_columns: z.array(Name).min(1).max(6),
  chart: z.enum(['column', 'bar', 'line', 'pie', 'none']).default('column'),
});

export const SummarySheetSchema = z.strictObject({
  name: SheetName,
  kind: z.literal('summary'),
  metrics: z.array(MetricSchema).max(60).default([]),
  groups: z.array(GroupSchema).max(6).default([]),
});

export const WorkbookPlanSchema = z.strictObject({
  title: z.string().min(1).max(120),
  file_name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,59}$/)
    .optional()
    .describe('Lower-case slug; default from the title'),
  sheets: z
    .array(z.discriminatedUnion('kind', [TableSheetSchema, SummarySheetSchema]))
    .min(1)
    .max(12),
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
