import { writeFile } from 'node:fs/promises';
import {
  BorderStyle,
  Document,
  HeadingLevel,
  Packer,
  PageBreak,
  Paragraph,
  Table,
  TableCell,
  TableOfContents,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import { PRIVATE_FILE_MODE } from '../../contract/paths.js';

export interface ReportSection {
  heading: string;
  level: 1 | 2;
  paragraphs: string[];
  table?: { columns: string[]; rows: string[][] } | undefined;
  page_break_before: boolean;
}

export interface ReportSpec {
  title: string;
  subtitle?: string | undefined;
  contents: boolean;
  sections: ReportSection[];
}

/** A4 with 2.5 cm margins, in twips (1/20 pt): the text area is 16 cm wide. */
const PAGE = { width: 11906, height: 16838, margin: 1417 };
const TEXT_WIDTH = PAGE.width - 2 * PAGE.margin;

export const CONTENTS_TITLE = 'Contents';

const BORDER = { style: BorderStyle.SINGLE, size: 4, color: '888888' };

function table(spec: { columns: string[]; rows: string[][] }): Table {
  const width = Math.floor(TEXT_WIDTH / spec.columns.length);
  const row = (cells: string[], header: boolean) =>
    new TableRow({
      tableHeader: header,
      children: spec.columns.map(
        (_, index) =>
          new TableCell({
            width: { size: width, type: WidthType.DXA },
            children: [
              new Paragraph({ children: [new TextRun({ text: cells[index] ?? '', bold: header })] }),
            ],
          }),
      ),
    });
  return new Table({
    width: { size: width * spec.columns.length, type: WidthType.DXA },
    columnWidths: spec.columns.map(() => width),
    borders: {
      top: BORDER,
      bottom: BORDER,
      left: BORDER,
      right: BORDER,
      insideHorizontal: BORDER,
      insideVertical: BORDER,
    },
    rows: [row(spec.columns, true), ...spec.rows.map((cells) => row(cells, false))],
  });
}

/** Writes the report as .docx: a title, a contents field (filled in by the office suite), and the sections. */
export async function writeDocx(spec: ReportSpec, path: string): Promise<void> {
  const body: Array<Paragraph | Table | TableOfContents> = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(spec.title)] }),
  ];
  if (spec.subtitle)
    body.push(new Paragraph({ children: [new TextRun({ text: spec.subtitle, italics: true })] }));
  if (spec.contents) {
    body.push(
      new Paragraph({ children: [new PageBreak()] }),
      new Paragraph({ children: [new TextRun({ text: CONTENTS_TITLE, bold: true, size: 32 })] }),
      new TableOfContents(CONTENTS_TITLE, { hyperlink: true, headingStyleRange: '1-2' }),
    );
  }
  spec.sections.forEach((section, index) => {
    const breakBefore = section.page_break_before || (index === 0 && spec.contents);
    body.push(
      new Paragraph({
        heading: section.level === 1 ? HeadingLevel.HEADING_1 : HeadingLevel.HEADING_2,
        pageBreakBefore: breakBefore,
        children: [new TextRun(section.heading)],
      }),
    );
    for (const text of section.paragraphs)
      body.push(new Paragraph({ spacing: { after: 120 }, children: [new TextRun(text)] }));
    if (section.table) body.push(table(section.table), new Paragraph({ children: [] }));
  });
  const document = new Document({
    title: spec.title,
    creator: 'Lift',
    features: { updateFields: true },
    styles: {
      paragraphStyles: [1, 2].map((level) => ({
        id: `Heading${level}`,
        name: `Heading ${level}`,
        basedOn: 'Normal',
        next: 'Normal',
        quickFormat: true,
        run: { size: level === 1 ? 32 : 26, bold: true },
        paragraph: { spacing: { before: 240, after: 120 }, outlineLevel: level - 1, keepNext: true },
      })),
    },
    sections: [
      {
        properties: {
          page: {
            size: { width: PAGE.width, height: PAGE.height },
            margin: { top: PAGE.margin, bottom: PAGE.margin, left: PAGE.margin, right: PAGE.margin },
          },
        },
        children: body,
      },
    ],
  });
  await writeFile(path, await Packer.toBuffer(document), { mode: PRIVATE_FILE_MODE });
}
