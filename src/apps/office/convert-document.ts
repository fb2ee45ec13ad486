import { existsSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import type { Check } from '../../contract/envelope.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { normalized, pdfPages } from './pdf.js';
import { OFFICE_TIMEOUT_HINT, officeRunner } from './worker.js';
// Declares the events this file emits, with their words (a run log's readers find them there).
import './events.js';

type Family = 'writer' | 'calc' | 'impress' | 'draw';

/** LibreOffice's export filter for each output format, by the kind of document being converted. */
const FILTERS: Record<string, Partial<Record<Family, string>>> = {
  pdf: {
    writer: 'writer_pdf_Export',
    calc: 'calc_pdf_Export',
    impress: 'impress_pdf_Export',
    draw: 'draw_pdf_Export',
  },
  docx: { writer: 'MS Word 2007 XML' },
  odt: { writer: 'writer8' },
  doc: { writer: 'MS Word 97' },
  rtf: { writer: 'Rich Text Format' },
  txt: { writer: 'Text' },
  html: { writer: 'HTML (StarWriter)', calc: 'HTML (StarCalc)', impress: 'impress_html_Export' },
  xlsx: { calc: 'Calc MS Excel 2007 XML' },
  ods: { calc: 'calc8' },
  xls: { calc: 'MS Excel 97' },
  csv: { calc: 'Text - txt - csv (StarCalc)' },
  pptx: { impress: 'Impress MS PowerPoint 2007 XML' },
  odp: { impress: 'impress8' },
  ppt: { impress: 'MS PowerPoint 97' },
  odg: { draw: 'draw8' },
};
const FORMATS = Object.keys(FILTERS) as [string, ...string[]];

/** Words of the source that the converted file must still contain. */
function sampleWords(text: string, count = 24): string[] {
  const words = normalized(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 4 && !/^\d+$/.test(word));
  return [...new Set(words)].slice(0, count);
}

export const convertDocument = defineTool({
  name: 'convert_document',
  title: 'Convert a document',
  description: `Converts a document LibreOffice can read (Word, Excel, PowerPoint, OpenDocument, RTF, CSV, HTML, text...) into another format it writes (${FORMATS.join(', ')}), and verifies the output: it opens, its page count (for PDF), and the source's text is present in it. Returns the path of the converted file.`,
  group: 'office',
  rung: 'file',
  input: z.strictObject({
    path: z
      .string()
      .min(1)
      .max(1000)
      .describe('Path of the document to convert, inside the working folder (or the roots the operator set)'),
    to: z.enum(FORMATS).describe('Format to write, by its extension.'),
    file_name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,79}$/i)
      .optional()
      .describe('Output name; the extension is added unless it is already there; default the source name'),
    request_id: RequestIdSchema.optional(),
  }),
  output: z.strictObject({
    path: z.string().describe('Absolute path of the converted file.'),
    format: z.string().describe('Its format, e.g. pdf.'),
    kind: z.string().describe('How LibreOffice read the source: writer, calc, impress or draw.'),
    bytes: z.number().int().describe('Size of the converted file.'),
    pages: z.number().int().optional().describe('Pages, for a PDF.'),
  }),
  errors: {
    NOT_FOUND: { hint: 'No readable file at that path. Give the absolute path of an existing document.' },
    PROGRAM_FAILED: {
      hint: 'LibreOffice could not open or convert the document; the message carries its reason.',
    },
    TIMEOUT: { retry: 'yes', hint: OFFICE_TIMEOUT_HINT },
  },
  effect: { class: 'reversible', repeat: 'A second identical call writes the same output file again.' },
  timeout: {
    deadlineMs: 120_000,
    settle:
      'Look in the output folder convert_document/ for the file named after the source with the new extension.',
  },
  paths: (input) => [{ path: input.path, scope: { family: 'office', what: 'path' } }],
  example: { path: '/home/me/report.docx', to: 'pdf' },
  async run(input, ctx) {
    const path = ctx.resolvePath(input.path, { family: 'office', what: 'path' });
    if (!existsSync(path) || !statSync(path).isFile()) {
      throw new LiftError('NOT_FOUND', `No file at ${input.path}.`, { outcome: 'not_started' });
    }
    const { to } = input;
    // file_name "x.pdf" converted to pdf is x.pdf, not x.pdf.pdf.
    const stem = (input.file_name ?? basename(path, extname(path))).replace(new RegExp(`\\.${to}$`, 'i'), '');
    const out = ctx.outputFile(`${stem}.${to}`);
    if (out === path) {
      throw new LiftError('BAD_INPUT', `The converted file would overwrite its source ${path}.`, {
        hint: 'Give a different file_name.',
        outcome: 'not_started',
      });
    }
    const office = await officeRunner(ctx);
    const limits = { signal: ctx.signal, deadline: ctx.deadline };
    ctx.markStarted();
    const started = performance.now();
    const converted = (await office.run(
      { op: 'convert', src: path, out, filters: FILTERS[to] ?? {} },
      limits,
    )) as {
      family: string;
      converted: boolean;
      text?: string;
    };
    ctx.emit({
      type: 'office-job-end',
      op: 'convert',
      mode: office.mode,
      ms: Math.round(performance.now() - started),
    });
    if (!converted.converted) {
      const possible = FORMATS.filter(
        (format) => FILTERS[format]?.[converted.family as Family] !== undefined,
      );
      throw new LiftError(
        'BAD_INPUT',
        `LibreOffice opens ${basename(path)} as a ${converted.family} document, which it cannot write as ${to}.`,
        {
          hint: `A ${converted.family} document converts to: ${possible.join(', ') || '(nothing)'}.`,
          outcome: 'not_started',
        },
      );
    }
    const bytes = existsSync(out) ? statSync(out).size : 0;
    let text = '';
    let pages: number | undefined;
    let opened = false;
    if (to === 'pdf' && bytes > 0) {
      const pdf = await pdfPages(out, ctx.signal);
      pages = pdf.length;
      opened = pages > 0;
      text = pdf.join('\n');
    } else if (bytes > 0) {
      const reopened = (await office.run({ op: 'inspect', src: out, chars: 20000 }, limits)) as {
        text: string;
      };
      opened = true;
      text = reopened.text;
    }
    const words = sampleWords(converted.text ?? '');
    const have = normalized(text);
    const lost = words.filter((word) => !have.includes(word));
    const checks: Check[] = [
      {
        name: 'output_opens',
        passed: opened,
        detail: opened
          ? `${basename(out)} (${bytes} bytes) opens${pages === undefined ? ' in LibreOffice' : ` as a PDF of ${pages} page(s)`}.`
          : `${basename(out)} is missing, empty or does not open.`,
      },
      {
        name: 'text_present',
        passed: lost.length <= Math.floor(words.length / 10),
        detail:
          words.length === 0
            ? 'The source has no text to look for.'
            : lost.length === 0
              ? `All ${words.length} sampled words of the source are in the output.`
              : `${lost.length} of ${words.length} sampled words of the source are missing from the output: ${lost.slice(0, 8).join(', ')}.`,
      },
    ];
    return {
      fields: {
        path: out,
        format: to,
        kind: converted.family,
        bytes,
        ...(pages === undefined ? {} : { pages }),
      },
      summary: `Converted ${basename(path)} (${converted.family}) to ${basename(out)}${pages === undefined ? '' : `, ${pages} page(s)`}.`,
      files: { [to]: out },
      checks,
      verifiedBy:
        to === 'pdf' ? 'pdfinfo and pdftotext read the PDF back' : 'LibreOffice reopened the converted file',
    };
  },
});
