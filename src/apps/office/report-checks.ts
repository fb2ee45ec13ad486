import type { Check } from '../../contract/envelope.js';
import { normalized } from './pdf.js';
import { CONTENTS_TITLE, type ReportSection } from './report-writer.js';

/** What the bridge's report job measured: each table against the page's text area, in 1/100 mm. */
export interface OfficeReport {
  indexes: number;
  tables: Array<{ name: string; left: number; width: number; text_width: number }>;
  pages: number;
}

/** Tables may sit this far outside the text area (cell padding) before they count as outside the margins. */
const TABLE_SLACK = 50;
const ENTRY = /^\s*(.+?)\s*(?:\.{2,}|\s{2,}|\t)\s*(\d+)\s*$/;

interface ContentsEntries {
  entries: Map<string, number>;
  /** Index of the last page that holds contents entries (-1 when none). */
  lastPage: number;
}

/** Reads the contents page(s) of the rendered PDF: heading -> the page number printed next to it. */
export function readContents(pages: string[], headings: string[]): ContentsEntries {
  const wanted = new Set(headings.map(normalized));
  const entries = new Map<string, number>();
  let lastPage = -1;
  for (const [index, page] of pages.entries()) {
    let found = 0;
    for (const line of page.split('\n')) {
      const match = ENTRY.exec(line);
      if (!match) continue;
      const title = normalized(match[1]!.replace(/\.+$/, ''));
      if (!wanted.has(title) || entries.has(title)) continue;
      entries.set(title, Number(match[2]));
      found += 1;
    }
    if (found > 0) lastPage = index;
    else if (lastPage >= 0) break;
  }
  return { entries, lastPage };
}

/** The first page (1-based) after `from` with a line that is exactly the heading. */
function pageOf(pages: string[], heading: string, from: number): number | undefined {
  const wanted = normalized(heading);
  for (let index = from; index < pages.length; index++) {
    if (pages[index]!.split('\n').some((line) => normalized(line) === wanted)) return index + 1;
  }
  return undefined;
}

export function reportChecks(
  sections: ReportSection[],
  pages: string[],
  office: OfficeReport,
  asked: { min?: number | undefined; max?: number | undefined; contents: boolean },
): Check[] {
  const checks: Check[] = [];
  const count = pages.length;
  const inRange =
    (asked.min === undefined || count >= asked.min) && (asked.max === undefined || count <= asked.max);
  const range =
    asked.min === asked.max && asked.min !== undefined
      ? `${asked.min}`
      : `${asked.min ?? 1} to ${asked.max ?? 'any number of'}`;
  checks.push({
    name: 'pages_as_asked',
    passed: inRange && count === office.pages,
    detail:
      asked.min === undefined && asked.max === undefined
        ? `The PDF has ${count} page(s); no page count was asked.`
        : `The PDF has ${count} page(s); ${range} were asked.`,
  });

  const contents = asked.contents
    ? readContents(
        pages,
        sections.map((section) => section.heading),
      )
    : undefined;
  const bodyStart = contents && contents.lastPage >= 0 ? contents.lastPage + 1 : asked.contents ? 2 : 0;
  const missing = sections.filter((section) => pageOf(pages, section.heading, bodyStart) === undefined);
  checks.push({
    name: 'headings_present',
    passed: missing.length === 0,
    detail:
      missing.length === 0
        ? `All ${sections.length} headings are in the PDF text.`
        : `Headings missing from the PDF text: ${missing.map((section) => section.heading).join(', ')}.`,
  });

  const outside = office.tables.filter(
    (table) => table.left < -TABLE_SLACK || table.left + table.width > table.text_width + TABLE_SLACK,
  );
  checks.push({
    name: 'tables_inside_margins',
    passed: outside.length === 0,
    detail:
      outside.length === 0
        ? `${office.tables.length} table(s), each inside the ${(office.tables[0]?.text_width ?? 0) / 1000} cm text width.`
        : `Tables outside the margins: ${outside
            .map(
              (table) =>
                `${table.name} is ${(table.width / 1000).toFixed(1)} cm wide from ${(table.left / 1000).toFixed(1)} cm, the text area ${(table.text_width / 1000).toFixed(1)} cm`,
            )
            .join('; ')}.`,
  });

  if (contents) {
    const wrong = sections.flatMap((section) => {
      const listed = contents.entries.get(normalized(section.heading));
      const actual = pageOf(pages, section.heading, bodyStart);
      if (listed === undefined) return [`${section.heading} is not in the contents`];
      if (listed !== actual)
        return [
          `${section.heading}: the contents say page ${listed}, it is on page ${actual ?? '(not found)'}`,
        ];
      return [];
    });
    checks.push({
      name: 'contents_match',
      passed: wrong.length === 0 && contents.lastPage >= 0,
      detail:
        contents.lastPage < 0
          ? `No ${CONTENTS_TITLE.toLowerCase()} page with page numbers was found in the PDF.`
          : wrong.length === 0
            ? `The contents page lists all ${sections.length} headings with the pages they are on.`
            : `The contents page is wrong: ${wrong.join('; ')}.`,
    });
  }
  return checks;
}
