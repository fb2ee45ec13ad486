import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalized, pdfPages } from '../../../src/apps/office/pdf.js';
import type { Envelope, SuccessEnvelope } from '../../../src/contract/envelope.js';
import { MARKS_SHEET } from './fixtures/marks-sheet.js';
import { leftBehind, type OfficeRuntime, officeRuntime } from './office-runtime.js';

function success(envelope: Envelope): SuccessEnvelope {
  if (!('checks' in envelope)) throw new Error(`expected a result, got ${JSON.stringify(envelope)}`);
  return envelope;
}

function check(envelope: SuccessEnvelope, name: string) {
  const found = envelope.checks.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no check named ${name} in ${JSON.stringify(envelope.checks)}`);
  return found;
}

describe('build_workbook', () => {
  let office: OfficeRuntime;
  beforeAll(async () => {
    office = await officeRuntime();
  });
  afterAll(async () => {
    const profile = office.office.profileDir;
    await office.close();
    expect(leftBehind(profile)).toEqual([]);
  });

  it('builds the marks sheet with every computed cell equal to the independent engine', async () => {
    const envelope = success(await office.runtime.invoke('build_workbook', { plan: MARKS_SHEET }));
    expect(envelope.ok, JSON.stringify(envelope.checks)).toBe(true);
    expect(check(envelope, 'values_agree').detail).toMatch(/^All \d+ computed cells/);
    expect(check(envelope, 'charts_present').passed).toBe(true);
    expect(envelope.fields.computed_cells).toBeGreaterThanOrEqual(19);
    expect(Object.keys(envelope.files).sort()).toEqual(['pdf', 'xlsx']);
    expect(JSON.stringify(envelope)).not.toContain('PK\u0003\u0004');
    const pdfText = normalized((await pdfPages(envelope.files.pdf!, AbortSignal.timeout(30_000))).join(' '));
    expect(pdfText).toContain('class average / total');

    // The saved file keeps live formulas, with the values LibreOffice computed.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(envelope.files.xlsx!);
    const marks = workbook.getWorksheet('Marks')!;
    const total = marks.getCell('G2').value as { formula: string; result: number };
    expect(total.formula).toBe('C2+D2+E2+F2');
    expect(total.result).toBe(344);
    expect((marks.getCell('G10').value as { result: number }).result).toBe(2350);
    expect((marks.getCell('I5').value as { result: string }).result).toBe('A+');
    const summary = workbook.getWorksheet('Summary')!;
    expect(summary.getCell('B2').value).toMatchObject({ formula: 'MAX(Marks!$G$2:$G$9)', result: 362 });
    expect(summary.getCell('B3').value).toMatchObject({ result: 215 });
  });

  it('fits each column to its labels, so the PDF shows the total label and metric labels whole', async () => {
    const totalLabel = 'Grand total over every region';
    const metricLabel = 'Average first-quarter sales across all regions of the company';
    const envelope = success(
      await office.runtime.invoke('build_workbook', {
        plan: {
          title: 'Regions',
          sheets: [
            {
              name: 'Sales',
              kind: 'table',
              columns: ['Region', 'Q1', 'Q2'],
              rows: [
                ['N', 120, 130],
                ['S', 80, 95],
              ],
              total: { Q1: 'sum', Q2: 'sum' },
              total_label: totalLabel,
            },
            {
              name: 'Summary',
              kind: 'summary',
              metrics: [{ label: metricLabel, aggregate: 'average', column: 'Q1' }],
            },
          ],
        },
      }),
    );
    expect(envelope.ok, JSON.stringify(envelope.checks)).toBe(true);
    // pdftotext reads only what the office drew: a clipped label comes out cut.
    const text = normalized((await pdfPages(envelope.files.pdf!, AbortSignal.timeout(30_000))).join(' '));
    expect(text).toContain(normalized(totalLabel));
    expect(text).toContain(normalized(metricLabel));
  });

  it('names the cell of a division by zero in a failed check', async () => {
    const envelope = success(
      await office.runtime.invoke('build_workbook', {
        plan: {
          title: 'Scores',
          sheets: [
            {
              name: 'Scores',
              kind: 'table',
              columns: [
                'Student',
                'Obtained',
                'Out Of',
                { name: 'Score', formula: 'ROUND([Obtained] / [Out Of] * 100, 1)' },
              ],
              rows: [
                ['Asha', 45, 50],
                ['Bilal', 30, 0],
                ['Chen', 40, 50],
              ],
            },
          ],
        },
      }),
    );
    expect(envelope.ok).toBe(false);
    const errors = check(envelope, 'no_error_values');
    expect(errors.passed).toBe(false);
    expect(errors.detail).toContain('Scores!D3 (Score, row 2 (Bilal)) is #DIV/0!');
  });

  it('flags a percent column that holds whole numbers (86 would show as 8600.0%)', async () => {
    const envelope = success(
      await office.runtime.invoke('build_workbook', {
        plan: {
          title: 'Percent slip',
          sheets: [
            {
              name: 'Marks',
              kind: 'table',
              columns: [
                'Student',
                'Total',
                { name: 'Percentage', type: 'percent', formula: 'ROUND([Total] / 400 * 100, 1)' },
              ],
              rows: [['Asha', 344]],
            },
          ],
        },
      }),
    );
    expect(check(envelope, 'values_agree').passed).toBe(true);
    expect(check(envelope, 'percent_formats')).toMatchObject({ passed: false });
    expect(check(envelope, 'percent_formats').detail).toContain(
      'Marks!C2 (Percentage, row 1 (Asha)) holds 86',
    );
  });

  it.each([
    ['a cell address', 'C2 * D2', "'C2' is a cell address"],
    ['a range', 'SUM(C2:C9)', "'C2:C9' is a cell address"],
    ['an absolute address', '[Qty] * $D$2', "'$D$2' is a cell address"],
    ['an address in brackets', '[Qty] * [D2]', "'[D2]' is a cell address"],
  ])('refuses %s in a formula as BAD_INPUT with the hint', async (_, formula, problem) => {
    const envelope = await office.runtime.invoke('build_workbook', {
      plan: {
        title: 'Orders',
        sheets: [
          {
            name: 'Orders',
            kind: 'table',
            columns: ['Item', 'Qty', 'Price', { name: 'Amount', formula }],
            rows: [['Pens', 10, 1.5]],
          },
        ],
      },
    });
    expect('error' in envelope && envelope.error).toMatchObject({
      code: 'BAD_INPUT',
      outcome: 'not_started',
    });
    if (!('error' in envelope)) return;
    expect(envelope.error.message).toContain(problem);
    expect(envelope.error.message).toContain('Sheet Orders, column Amount');
    expect(envelope.error.hint).toContain('[Qty] * [Price]');
    expect(envelope.error.hint).toContain('never cell addresses');
  });
});
