import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { LiftError } from '../../../src/contract/errors.js';
import {
  type ColumnSpec,
  type ExportContract,
  type ExportFormat,
  readExport,
} from '../../../src/rungs/file/index.js';
import { tempDir } from '../../support/temp.js';

const root = tempDir('lift-export-');
afterAll(() => root.remove());

const COLUMNS: ColumnSpec[] = [
  { name: 'sku', type: 'string' },
  { name: 'qty', type: 'integer' },
  { name: 'price', type: 'number' },
  { name: 'shipped', type: 'date' },
];
const ROWS: Array<[string, number, number, string]> = [
  ['A-1', 3, 9.5, '2026-11-01'],
  ['B-2', 10, 1.25, '2026-11-02'],
  ['A-3', 7, 20, '2026-11-03'],
  ['C-4', 1, 99.99, '2026-11-04'],
];

/** The LiftError a read fails with; a read that succeeds fails the test. */
async function failure(read: Promise<unknown>): Promise<LiftError> {
  const outcome = await read.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof LiftError)) throw new Error(`expected a LiftError, got ${String(outcome)}`);
  return outcome;
}

let counter = 0;
function folder(): string {
  const dir = join(root.path, `case-${counter++}`);
  mkdirSync(dir);
  return dir;
}

function contract(dir: string, format: ExportFormat, extra: Partial<ExportContract> = {}): ExportContract {
  return { dir, pattern: /^stock-.*$/, format, columns: COLUMNS, maxAgeMs: 60_000, ...extra };
}

const delimited = (separator: string, header = COLUMNS.map((column) => column.name)) =>
  `${header.join(separator)}\n${ROWS.map((row) => row.join(separator)).join('\n')}\n`;

async function writeXlsx(path: string, header: string[]): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Stock');
  sheet.addRow(header);
  for (const [sku, qty, price, shipped] of ROWS)
    sheet.addRow([sku, qty, price, new Date(`${shipped}T00:00:00Z`)]);
  await workbook.xlsx.writeFile(path);
}

const FORMATS: Array<{
  name: string;
  format: ExportFormat;
  write: (path: string, header?: string[]) => Promise<void> | void;
}> = [
  {
    name: 'CSV',
    format: { kind: 'csv' },
    write: (path, header) => writeFileSync(path, delimited(',', header)),
  },
  {
    name: 'TSV',
    format: { kind: 'tsv' },
    write: (path, header) => writeFileSync(path, delimited('\t', header)),
  },
  {
    name: 'fixed-width',
    format: { kind: 'fixed', widths: [8, 6, 8, 12], headerLine: true },
    write: (path, header = COLUMNS.map((column) => column.name)) => {
      const line = (cells: Array<string | number>) =>
        cells.map((cell, index) => String(cell).padEnd([8, 6, 8, 12][index] ?? 0)).join('');
      writeFileSync(path, `${[line(header), ...ROWS.map(line)].join('\n')}\n`);
    },
  },
  {
    name: 'JSON lines',
    format: { kind: 'jsonl' },
    write: (path, header = COLUMNS.map((column) => column.name)) =>
      writeFileSync(
        path,
        ROWS.map((row) =>
          JSON.stringify(Object.fromEntries(header.map((name, index) => [name, row[index]]))),
        ).join('\n'),
      ),
  },
  {
    name: 'XLSX',
    format: { kind: 'xlsx' },
    write: (path, header = COLUMNS.map((column) => column.name)) => writeXlsx(path, header),
  },
];

describe.each(FORMATS)('$name exports', ({ format, write }) => {
  it('filters on named columns, caps the rows, counts every match and types the values', async () => {
    const dir = folder();
    await write(join(dir, 'stock-1'));
    const read = await readExport(contract(dir, format), {
      filters: [
        { column: 'qty', op: 'gte', value: 3 },
        { column: 'shipped', op: 'lt', value: '2026-11-04' },
      ],
      limit: 2,
    });
    expect(read.matched).toBe(3);
    expect(read.scanned).toBe(4);
    expect(read.truncated).toBe(true);
    expect(read.rows).toEqual([
      { sku: 'A-1', qty: 3, price: 9.5, shipped: '2026-11-01' },
      { sku: 'B-2', qty: 10, price: 1.25, shipped: '2026-11-02' },
    ]);
  });

  it('returns SURFACE_CHANGED naming a renamed column before reading any row', async () => {
    const dir = folder();
    await write(join(dir, 'stock-1'), ['sku', 'units', 'price', 'shipped']);
    const error = await readExport(contract(dir, format), { limit: 10 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LiftError);
    expect((error as LiftError).code).toBe('SURFACE_CHANGED');
    expect((error as LiftError).message).toContain("column 'qty' is now named 'units'");
  });
});

describe('export reads', () => {
  it('reads the newest export by its own timestamp, skipping temporary and dot files', async () => {
    const dir = folder();
    const stamp = (name: string) => {
      const match = /stock-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2})\.csv$/.exec(name);
      return match?.[1] ? new Date(`${match[1].replace(/T(\d{2})-(\d{2})/, 'T$1:$2')}:00Z`) : undefined;
    };
    writeFileSync(join(dir, 'stock-2026-11-01T08-00.csv'), delimited(','));
    writeFileSync(
      join(dir, 'stock-2026-11-02T08-00.csv'),
      delimited(',', ['sku', 'qty', 'price', 'shipped']).split('\n').slice(0, 2).join('\n'),
    );
    writeFileSync(join(dir, '.stock-2026-11-03T08-00.csv.123.abcdef01.tmp'), 'half a fi');
    const read = await readExport(contract(dir, { kind: 'csv' }, { asOfFromName: stamp, maxAgeMs: 1_000 }), {
      limit: 10,
    });
    expect(read.file).toContain('stock-2026-11-02T08-00.csv');
    expect(read.as_of).toBe('2026-11-02T08:00:00.000Z');
    expect(read.as_of_source).toBe('export');
    expect(read.scanned).toBe(1);
    expect(read.stale).toBe(true);
  });

  it('uses the file time when the export has no timestamp, and flags it stale only past the maximum age', async () => {
    const dir = folder();
    const path = join(dir, 'stock.csv');
    writeFileSync(path, delimited(','));
    const fresh = await readExport(contract(dir, { kind: 'csv' }, { pattern: /^stock\.csv$/ }), { limit: 1 });
    expect(fresh.as_of_source).toBe('file_mtime');
    expect(fresh.stale).toBe(false);
    const old = new Date(Date.now() - 5 * 60_000);
    utimesSync(path, old, old);
    const stale = await readExport(contract(dir, { kind: 'csv' }, { pattern: /^stock\.csv$/ }), { limit: 1 });
    expect(stale.as_of).toBe(old.toISOString());
    expect(stale.stale).toBe(true);
    expect(stale.age_seconds).toBeGreaterThanOrEqual(299);
  });

  it('returns SURFACE_CHANGED when a column changes type, and names missing, extra and reordered columns', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'stock-1'), 'sku,qty,price,shipped\nA-1,three,9.5,2026-11-01\n');
    const typed = await failure(readExport(contract(dir, { kind: 'csv' }), { limit: 1 }));
    expect(typed.code).toBe('SURFACE_CHANGED');
    expect(typed.message).toContain("column 'qty'");
    writeFileSync(join(dir, 'stock-1'), 'qty,sku,price,shipped\n');
    const reordered = await failure(readExport(contract(dir, { kind: 'csv' }), { limit: 1 }));
    expect(reordered.message).toContain('order is qty, sku, price, shipped');
    writeFileSync(join(dir, 'stock-1'), 'sku,qty,price\n');
    const missing = await failure(readExport(contract(dir, { kind: 'csv' }), { limit: 1 }));
    expect(missing.message).toContain("missing 'shipped'");
    expect(missing.message).toContain('3 columns instead of 4');
  });

  it('rejects a filter on an unknown column or with a value of the wrong type before opening the export', async () => {
    const dir = folder();
    const unknown = await failure(
      readExport(contract(dir, { kind: 'csv' }), {
        filters: [{ column: 'colour', op: 'eq', value: 'red' }],
        limit: 1,
      }),
    );
    expect(unknown.code).toBe('BAD_INPUT');
    const wrongType = await failure(
      readExport(contract(dir, { kind: 'csv' }), {
        filters: [{ column: 'qty', op: 'gt', value: 'many' }],
        limit: 1,
      }),
    );
    expect(wrongType.code).toBe('BAD_INPUT');
  });

  it('reads the XLSX sheet the contract names, skipping the ones before it', async () => {
    const dir = folder();
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['not', 'the', 'export']);
    const sheet = workbook.addWorksheet('Stock');
    sheet.addRow(COLUMNS.map((column) => column.name));
    sheet.addRow(['Z-9', 2, 3.5, new Date('2026-11-05T00:00:00Z')]);
    await workbook.xlsx.writeFile(join(dir, 'stock-1'));
    const read = await readExport(contract(dir, { kind: 'xlsx', sheetId: 2 }), { limit: 5 });
    expect(read.rows).toEqual([{ sku: 'Z-9', qty: 2, price: 3.5, shipped: '2026-11-05' }]);
  });

  it('returns NOT_FOUND when no export has been written yet', async () => {
    const error = await failure(readExport(contract(folder(), { kind: 'csv' }), { limit: 1 }));
    expect(error.code).toBe('NOT_FOUND');
  });
});
