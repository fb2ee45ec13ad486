import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { FORMULA_HINT } from './formula.js';
import { pdfPageCount } from './pdf.js';
import type { OfficeWorkbook } from './workbook-checks.js';
import { slug, WorkbookPlanSchema } from './workbook-plan.js';
import { OFFICE_TIMEOUT_HINT, officeRunner } from './worker.js';
// Declares the events this file emits, with their words (a run log's readers find them there).
import './events.js';

const DESCRIPTION = `Builds an .xlsx workbook with live formulas from one plan, has LibreOffice recalculate it and export a PDF, and checks every computed cell against an independent engine.
plan: {title, sheets: [{name, kind: "table", columns, rows, total?} | {name, kind: "summary", metrics, groups}]}.
NEVER write cell addresses (A1, C2:C9). Computed columns name other columns in brackets: "[Qty] * [Price]", "ROUND([Obtained] / [Total] * 100, 1)". Summary metrics use whole columns: "MAX([Marks!Total])", or {aggregate: "average", column: "Maths"}. Groups copy a label column and value columns from a table and chart them. Type "percent" means a fraction (0.86 shows as 86.0%).
Returns the paths of the .xlsx and .pdf and checks: no error values (#DIV/0!, #REF!, #NAME?, Err:5xx, each named by cell), every computed value equal to the independent one, charts present.`;

export const buildWorkbook = defineTool({
  name: 'build_workbook',
  title: 'Build a spreadsheet workbook',
  description: DESCRIPTION,
  group: 'office',
  rung: 'file',
  ladder: {
    ruledOut: ['api', 'cli'],
    climb:
      'The workbook is written as its native file; LibreOffice computes it through its scripting interface (UNO).',
  },
  input: z.strictObject({
    plan: WorkbookPlanSchema.describe('The whole workbook; no cell addresses.'),
    request_id: RequestIdSchema.optional(),
  }),
  output: z.strictObject({
    xlsx: z.string().describe('Absolute path of the .xlsx.'),
    pdf: z.string().describe('Absolute path of the PDF LibreOffice exported.'),
    sheets: z.number().int().describe('Sheets written.'),
    computed_cells: z.number().int().describe('Formula cells checked against the independent engine.'),
    charts: z.number().int().describe('Charts written.'),
    pdf_pages: z.number().int().describe('Pages of the PDF.'),
  }),
  errors: {
    BAD_INPUT: { hint: FORMULA_HINT },
    PROGRAM_FAILED: {
      hint: 'LibreOffice could not open, compute or save the workbook; the message carries its reason.',
    },
    TIMEOUT: { retry: 'yes', hint: OFFICE_TIMEOUT_HINT },
  },
  effect: {
    class: 'reversible',
    repeat:
      'A second identical call writes the same two files again; a second call with the same request_id returns the first result.',
  },
  timeout: {
    deadlineMs: 120_000,
    settle:
      'Look in the output folder build_workbook/ for the .xlsx and .pdf named after the plan (file_name or the title as a slug).',
  },
  example: {
    plan: {
      title: 'Orders',
      sheets: [
        {
          name: 'Orders',
          kind: 'table',
          columns: ['Item', 'Qty', 'Price', { name: 'Amount', type: 'currency', formula: '[Qty] * [Price]' }],
          rows: [
            ['Pens', 10, 1.5],
            ['Paper', 2, 4.25],
          ],
          total: { Qty: 'sum', Amount: 'sum' },
        },
      ],
    },
  },
  async run({ plan }, ctx) {
    // The layout, the .xlsx writer, the independent formula engine and the checks load when a
    // workbook is first built, not when the tool is declared.
    const { layOut } = await import('./workbook-layout.js');
    const { computeIndependently } = await import('./formula-engine.js');
    const { writeXlsx } = await import('./xlsx-writer.js');
    const { zipEntries } = await import('./zip-entries.js');
    const { workbookChecks } = await import('./workbook-checks.js');
    const layout = layOut(plan);
    const expected = await computeIndependently(layout);
    const name = plan.file_name ?? slug(plan.title);
    const source = ctx.outputFile(`.${name}.${randomUUID().slice(0, 8)}.source.xlsx`);
    const xlsx = ctx.outputFile(`${name}.xlsx`);
    const pdf = ctx.outputFile(`${name}.pdf`);
    ctx.markStarted();
    await writeXlsx(layout, plan.title, source);
    const office = await officeRunner(ctx);
    const started = performance.now();
    let result: Omit<OfficeWorkbook, 'charts'> & { ms: Record<string, number> };
    try {
      const job = {
        op: 'workbook' as const,
        src: source,
        xlsx,
        pdf,
        charts: layout.charts.map((chart) => ({
          name: chart.name,
          title: chart.title,
          type: chart.type,
          sheet: chart.sheet,
          source_sheet: chart.sourceSheet,
          range: chart.range,
          anchor: chart.anchor,
        })),
      };
      result = (await office.run(job, { signal: ctx.signal, deadline: ctx.deadline })) as typeof result;
    } finally {
      await rm(source, { force: true });
    }
    ctx.emit({
      type: 'office-job-end',
      op: 'workbook',
      mode: office.mode,
      ms: Math.round(performance.now() - started),
      phases: result.ms,
    });
    const [pages, entries] = await Promise.all([pdfPageCount(pdf, ctx.signal), zipEntries(xlsx)]);
    const charts = entries.filter((entry) => /^xl\/charts\/chart\d+\.xml$/.test(entry)).length;
    const checks = [
      ...workbookChecks(layout, expected, { ...result, charts }),
      { name: 'pdf_rendered', passed: pages > 0, detail: `The PDF has ${pages} page(s).` },
    ];
    return {
      fields: {
        xlsx,
        pdf,
        sheets: layout.sheets.length,
        computed_cells: expected.length,
        charts,
        pdf_pages: pages,
      },
      summary: `Made ${name}.xlsx and its PDF ${name}.pdf: ${layout.sheets.length} sheet(s), ${expected.length} computed cells, ${charts} chart(s).`,
      files: { xlsx, pdf },
      checks,
      verifiedBy:
        'LibreOffice recalculated the file; every computed cell read back and compared with HyperFormula',
    };
  },
});
