import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfPages } from '../../../src/apps/office/pdf.js';
import type { Envelope, SuccessEnvelope } from '../../../src/contract/envelope.js';
import { leftBehind, type OfficeRuntime, officeRuntime } from './office-runtime.js';

function success(envelope: Envelope): SuccessEnvelope {
  if (!('checks' in envelope)) throw new Error(`expected a result, got ${JSON.stringify(envelope)}`);
  return envelope;
}

const PARAGRAPH =
  'The stores in the north grew faster than any other region this year, helped by two openings and a steady rise in returning customers. '.repeat(
    5,
  );

const REPORT = {
  title: 'Annual Store Review',
  subtitle: 'Prepared for the board',
  sections: [
    { heading: 'Introduction', paragraphs: [PARAGRAPH, PARAGRAPH] },
    { heading: 'Background', level: 2, paragraphs: [PARAGRAPH, PARAGRAPH, PARAGRAPH] },
    {
      heading: 'Results by region',
      page_break_before: true,
      paragraphs: [PARAGRAPH],
      table: {
        columns: ['Region', 'Sales', 'Growth'],
        rows: [
          ['North', '120', '4%'],
          // Numbers are taken as cells too, as a model often writes them.
          ['South', 98, '2%'],
        ],
      },
    },
    { heading: 'Outlook', paragraphs: Array.from({ length: 8 }, () => PARAGRAPH) },
    { heading: 'Conclusion', paragraphs: [PARAGRAPH] },
  ],
};

describe('build_report', () => {
  let office: OfficeRuntime;
  beforeAll(async () => {
    office = await officeRuntime();
  });
  afterAll(async () => {
    const profile = office.office.profileDir;
    await office.close();
    expect(leftBehind(profile)).toEqual([]);
  });

  it('makes a report whose contents page lists the real page of every heading', async () => {
    const envelope = success(
      await office.runtime.invoke('build_report', { report: { ...REPORT, pages: { min: 4, max: 8 } } }),
    );
    expect(envelope.ok, JSON.stringify(envelope.checks)).toBe(true);
    expect(envelope.checks.map((check) => check.name)).toEqual([
      'pages_as_asked',
      'headings_present',
      'tables_inside_margins',
      'contents_match',
    ]);
    // Read the PDF here too: the contents page (page 2) names "Results by region" with the page it starts on.
    const pages = await pdfPages(envelope.files.pdf!, new AbortController().signal);
    const entry = /Results by region[ .]*(\d+)/.exec(pages[1] ?? '');
    expect(entry).not.toBeNull();
    const actual = pages.findIndex((page, index) => index > 1 && /^\s*Results by region\s*$/m.test(page)) + 1;
    expect(Number(entry![1])).toBe(actual);
    expect(actual).toBeGreaterThan(3);
  });

  it('fails the page check when the report is longer than asked', async () => {
    const envelope = success(
      await office.runtime.invoke('build_report', { report: { ...REPORT, pages: { max: 2 } } }),
    );
    expect(envelope.ok).toBe(false);
    const pagesCheck = envelope.checks.find((check) => check.name === 'pages_as_asked');
    expect(pagesCheck?.passed).toBe(false);
    expect(pagesCheck?.detail).toMatch(/^The PDF has \d+ page\(s\); 1 to 2 were asked\.$/);
  });
});
