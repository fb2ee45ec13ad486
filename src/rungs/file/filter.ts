import { z } from 'zod';
import { LiftError } from '../../contract/errors.js';
import { type Cell, type ColumnSpec, coerce } from './columns.js';

export const FILTER_OPS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'contains', 'prefix', 'in'] as const;

/** One condition on a named column, applied on disk while the export streams by. */
export const FilterSchema = z.strictObject({
  column: z.string().min(1).max(64).describe('A column of the export, by its header.'),
  op: z.enum(FILTER_OPS).describe('contains and prefix compare text; in takes an array.'),
  value: z
    .union([
      z.string().max(200),
      z.number().finite(),
      z.boolean(),
      z
        .array(z.union([z.string().max(200), z.number().finite()]))
        .min(1)
        .max(50),
    ])
    .describe('Compared in the column\'s type: "2026-11-30" for a date.'),
});
export type Filter = z.infer<typeof FilterSchema>;

export type RowPredicate = (cells: readonly Cell[]) => boolean;

type Scalar = string | number | boolean;

function compare(a: Scalar, b: Scalar): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const left = String(a);
  const right = String(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

function expectedOf(spec: ColumnSpec, filter: Filter, value: unknown): Scalar {
  const typed = coerce(spec.type, value as Cell);
  if (typed === undefined || typed === null) {
    throw new LiftError(
      'BAD_INPUT',
      `Filter value ${JSON.stringify(value)} is not a ${spec.type}, the type of column '${filter.column}'.`,
      {
        hint: `Give a ${spec.type} value for '${filter.column}'.`,
        outcome: 'not_started',
      },
    );
  }
  return typed;
}

/**
 * Compiles filters against the contract's columns (by index, so each row costs one array
 * lookup and one comparison per filter). An unknown column or a value of the wrong type is
 * BAD_INPUT before the export is opened.
 */
export function compileFilters(filters: readonly Filter[], columns: readonly ColumnSpec[]): RowPredicate {
  const tests = filters.map((filter): ((cells: readonly Cell[]) => boolean) => {
    const index = columns.findIndex((column) => column.name === filter.column);
    const spec = columns[index];
    if (!spec) {
      throw new LiftError('BAD_INPUT', `No column is named '${filter.column}'.`, {
        hint: `Filter on one of: ${columns.map((column) => column.name).join(', ')}.`,
        outcome: 'not_started',
      });
    }
    const cellValue = (cells: readonly Cell[]) => coerce(spec.type, cells[index]);
    if (filter.op === 'in') {
      const list = Array.isArray(filter.value) ? filter.value : [filter.value];
      const wanted = new Set(list.map((value) => expectedOf(spec, filter, value)));
      return (cells) => {
        const value = cellValue(cells);
        return value !== undefined && value !== null && wanted.has(value);
      };
    }
    if (Array.isArray(filter.value)) {
      throw new LiftError('BAD_INPUT', `Operator '${filter.op}' takes one value, not a list.`, {
        hint: "Use op 'in' for a list of values.",
        outcome: 'not_started',
      });
    }
    if (filter.op === 'contains' || filter.op === 'prefix') {
      const needle = String(filter.value).toLowerCase();
      const prefix = filter.op === 'prefix';
      return (cells) => {
        const text = String(cells[index] ?? '').toLowerCase();
        return prefix ? text.startsWith(needle) : text.includes(needle);
      };
    }
    const expected = expectedOf(spec, filter, filter.value);
    const op = filter.op;
    if (spec.type === 'string' && (op === 'eq' || op === 'ne')) {
      // The common case on large exports: text cells compared as they come from the parser.
      const wanted = String(expected);
      return (cells) => {
        const cell = cells[index];
        const same = typeof cell === 'string' ? cell === wanted : String(cell ?? '') === wanted;
        return op === 'eq' ? same && wanted !== '' : !same;
      };
    }
    return (cells) => {
      const value = cellValue(cells);
      if (value === undefined || value === null) return op === 'ne';
      const order = compare(value, expected);
      switch (op) {
        case 'eq':
          return order === 0;
        case 'ne':
          return order !== 0;
        case 'lt':
          return order < 0;
        case 'lte':
          return order <= 0;
        case 'gt':
          return order > 0;
        case 'gte':
          return order >= 0;
      }
    };
  });
  const [only] = tests;
  if (tests.length === 0) return () => true;
  if (tests.length === 1 && only) return only;
  return (cells) => tests.every((test) => test(cells));
}
