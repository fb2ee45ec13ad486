import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { pdfPages } from './pdf.js';
import type { OfficeReport } from './report-checks.js';
import { slug } from './workbook-plan.js';
import { OFFICE_TIMEOUT_HINT, officeRunner } from './worker.js';
// Declares the events this file emits, with their words (a run log's readers find them there).
import './events.js';

const SectionSchema = z.strictObject({
  heading: z.string().trim().min(1).max(200).describe('Section heading, listed in the contents.'),
  level: z
    .union([z.literal(1), z.literal(2)])
    .default(1)
    .describe('1 for a chapter, 2 for a subsection.'),
  paragraphs: z
    .array(z.string().min(1).max(6000))
    .max(60)
    .default([])
    .describe('Plain text, one paragraph each.'),
  table: z
    .strictObject({
      columns: z.array(z.string().max(100)).min(1).max(10).describe('Column headers.'),
      // A model writes 120 as often as '120': a number becomes its text, as it would be printed.
      rows: z
        .array(
          z
            .array(z.union([z.string().max(500), z.number().finite()]).transform((cell) => String(cell)))
            .max(10),
        )
        .max(300)
        .describe('Cells in column order.'),
    })
    .optional()
    .describe('A table after the paragraphs.'),
  page_break_before: z.boolean().default(false).describe('Start the section on a new page.'),
});

const ReportSchema = z.strictObject({
  title: z.string().trim().min(1).max(200).describe('Title on the first page.'),
  subtitle: z.string().max(300).optional().describe('Line under the title.'),
  file_name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,59}$/)
    .optional()
    .describe('Lower-case slug; default from the title'),
  contents: z.boolean().default(true).describe('A contents page after the title, with page numbers'),
  pages: z
    .strictObject({
      min: z.number().int().min(1).max(500).optional().describe('Fewest pages.'),
      max: z.number().int().min(1).max(500).optional().describe('Most pages.'),
    })
    .optional()
    .describe('How many pages the PDF should have; checked'),
  sections: z.array(SectionSchema).min(1).max(80).describe('Sections in order.'),
});

export const buildReport = defineTool({
  name: 'build_report',
  title: 'Build a report document',
  description: `Builds a .docx report from whole sections (headings, paragraphs, tables) with a contents page, has LibreOffice fill in the contents and render a PDF, and checks the page count against what was asked, every heading present in the PDF text, tables inside the margins, and the contents page matching the real page numbers.
report: {title, subtitle?, contents?: true, pages?: {min?, max?}, sections: [{heading, level?: 1 | 2, paragraphs, table?: {columns, rows}, page_break_before?}]}. Returns the paths of the .docx and .pdf.`,
  group: 'office',
  rung: 'file',
  input: z.strictObject({
    report: ReportSchema.describe('The whole report.'),
    request_id: RequestIdSchema.optional(),
  }),
  output: z.strictObject({
    docx: z.string().describe('Absolute path of the .docx.'),
    pdf: z.string().describe('Absolute path of the PDF LibreOffice rendered.'),
    pages: z.number().int().describe('Pages of the PDF.'),
    headings: z.number().int().describe('Headings written.'),
    tables: z.number().int().describe('Tables in the document.'),
  }),
  errors: {
    PROGRAM_FAILED: {
      hint: 'LibreOffice could not open or render the report; the message carries its reason.',
    },
    TIMEOUT: { retry: 'yes', hint: OFFICE_TIMEOUT_HINT },
  },
  effect: { class: 'reversible', repeat: 'A second identical call writes the same two files again.' },
  timeout: {
    deadlineMs: 120_000,
    settle:
      'Look in the output folder build_report/ for the .docx and .pdf named after the report (file_name or the title as a slug).',
  },
  example: {
    report: {
      title: 'Store review',
      pages: { min: 2, max: 4 },
      sections: [
        { heading: 'Summary', paragraphs: ['Sales rose 12% on the year.'] },
        {
          heading: 'Sales by region',
          paragraphs: ['North led the growth.'],
          table: { columns: ['Region', 'Sales'], rows: [['North', '120']] },
        },
      ],
    },
  },
  async run({ report }, ctx) {
    // The .docx writer and the checks load when a report is first built.
    const { writeDocx } = await import('./report-writer.js');
    const { reportChecks } = await import('./report-checks.js');
    if (
      report.pages?.min !== undefined &&
      report.pages.max !== undefined &&
      report.pages.min > report.pages.max
    ) {
      throw new LiftError(
        'BAD_INPUT',
        `pages.min (${report.pages.min}) is above pages.max (${report.pages.max}).`,
        {
          hint: 'Ask for a range like {"min": 3, "max": 5}, or leave pages out.',
          outcome: 'not_started',
        },
      );
    }
    for (const [index, section] of report.sections.entries()) {
      const width = section.table?.columns.length ?? 0;
      const wide = section.table?.rows.findIndex((row) => row.length > width) ?? -1;
      if (wide >= 0) {
        throw new LiftError(
          'BAD_INPUT',
          `Section ${index + 1} (${section.heading}): table row ${wide + 1} has more cells than columns.`,
          {
            hint: 'Give each table row at most one cell per column.',
            outcome: 'not_started',
          },
        );
      }
    }
    const name = report.file_name ?? slug(report.title);
    const source = ctx.outputFile(`.${name}.${randomUUID().slice(0, 8)}.source.docx`);
    const docx = ctx.outputFile(`${name}.docx`);
    const pdf = ctx.outputFile(`${name}.pdf`);
    ctx.markStarted();
    await writeDocx(
      {
        title: report.title,
        subtitle: report.subtitle,
        contents: report.contents,
        sections: report.sections,
      },
      source,
    );
    const office = await officeRunner(ctx);
    const started = performance.now();
    let measured: OfficeReport;
    try {
      measured = (await office.run(
        { op: 'report', src: source, docx, pdf },
        { signal: ctx.signal, deadline: ctx.deadline },
      )) as OfficeReport;
    } finally {
      await rm(source, { force: true });
    }
    ctx.emit({
      type: 'office-job-end',
      op: 'report',
      mode: office.mode,
      ms: Math.round(performance.now() - started),
    });
    const pages = await pdfPages(pdf, ctx.signal);
    const checks = reportChecks(report.sections, pages, measured, {
      min: report.pages?.min,
      max: report.pages?.max,
      contents: report.contents,
    });
    return {
      fields: {
        docx,
        pdf,
        pages: pages.length,
        headings: report.sections.length,
        tables: measured.tables.length,
      },
      summary: `Made ${name}.docx and its PDF ${name}.pdf: ${pages.length} page(s), ${report.sections.length} heading(s), ${measured.tables.length} table(s).`,
      files: { docx, pdf },
      checks,
      verifiedBy:
        'LibreOffice filled in the contents and rendered the PDF; the PDF text read back with pdftotext',
    };
  },
});
