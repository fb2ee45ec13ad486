import { LiftError } from '../../contract/errors.js';

export const COLUMN_TYPES = ['string', 'integer', 'number', 'date', 'datetime', 'boolean'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export interface ColumnSpec {
  name: string;
  type: ColumnType;
}

/** A cell as a source yields it: text from CSV, TSV and fixed-width; typed values from JSON lines and XLSX. */
export type Cell = string | number | boolean | Date | null | undefined;
export type Value = string | number | boolean | null;

const INTEGER = /^-?\d+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Converts a cell to the declared type, or returns undefined when it is not of that type. */
export function coerce(type: ColumnType, cell: Cell): Value | undefined {
  if (cell === null || cell === undefined || cell === '') return null;
  switch (type) {
    case 'string':
      return cell instanceof Date ? cell.toISOString() : String(cell);
    case 'integer': {
      if (typeof cell === 'number') return Number.isInteger(cell) ? cell : undefined;
      return typeof cell === 'string' && INTEGER.test(cell.trim()) ? Number(cell) : undefined;
    }
    case 'number': {
      if (typeof cell === 'number') return cell;
      if (typeof cell !== 'string' || cell.trim() === '') return undefined;
      const value = Number(cell);
      return Number.isFinite(value) ? value : undefined;
    }
    case 'date': {
      if (cell instanceof Date) return cell.toISOString().slice(0, 10);
      return typeof cell === 'string' && DATE.test(cell.trim()) ? cell.trim() : undefined;
    }
    case 'datetime': {
      if (cell instanceof Date) return cell.toISOString();
      return typeof cell === 'string' && DATETIME.test(cell.trim()) ? cell.trim() : undefined;
    }
    case 'boolean': {
      if (typeof cell === 'boolean') return cell;
      const text = String(cell).trim().toLowerCase();
      if (text === 'true' || text === '1' || text === 'yes') return true;
      if (text === 'false' || text === '0' || text === 'no') return false;
      return undefined;
    }
  }
}

/**
 * Compares the header an export has with the one the contract expects: names, order and
 * count. Returns a sentence naming each difference, or undefined when they agree.
 */
export function headerDifference(
  expected: readonly ColumnSpec[],
  actual: readonly string[],
): string | undefined {
  const want = expected.map((column) => column.name);
  const got = actual.map((name) => name.trim());
  if (want.length === got.length && want.every((name, index) => name === got[index])) return undefined;
  const missing = want.filter((name) => !got.includes(name));
  const extra = got.filter((name) => !want.includes(name));
  const parts: string[] = [];
  if (missing.length === 1 && extra.length === 1) {
    parts.push(`column '${missing[0]}' is now named '${extra[0]}'`);
  } else {
    if (missing.length > 0) parts.push(`missing ${missing.map((name) => `'${name}'`).join(', ')}`);
    if (extra.length > 0) parts.push(`new ${extra.map((name) => `'${name}'`).join(', ')}`);
  }
  if (want.length !== got.length) parts.push(`${got.length} columns instead of ${want.length}`);
  if (missing.length === 0 && extra.length === 0) {
    parts.push(`order is ${got.join(', ')} instead of ${want.join(', ')}`);
  }
  return parts.join('; ');
}

export function surfaceChanged(
  file: string,
  difference: string,
  expected: readonly ColumnSpec[],
  actual: readonly string[],
) {
  return new LiftError(
    'SURFACE_CHANGED',
    `The export ${file} does not have the expected header: ${difference}.`,
    {
      hint: `Expected columns ${expected.map((column) => `${column.name} (${column.type})`).join(', ')}; the export has ${actual.join(', ')}. The program changed its export: update the tool's contract; do not retry.`,
      details: { file, difference, expected: expected.map((column) => column.name), actual: [...actual] },
    },
  );
}

export function typeChanged(file: string, line: number, column: ColumnSpec, cell: Cell) {
  return new LiftError(
    'SURFACE_CHANGED',
    `The export ${file} has a ${typeof cell} value ${JSON.stringify(String(cell)).slice(0, 60)} in column '${column.name}' on line ${line}, where the contract expects ${column.type}.`,
    {
      hint: `The column '${column.name}' changed type. Update the tool's contract; do not retry.`,
      details: {
        file,
        line,
        column: column.name,
        expected_type: column.type,
        value: String(cell).slice(0, 200),
      },
    },
  );
}
