import { LiftError } from '../../../contract/errors.js';
import type { Cell } from '../columns.js';
import { linesOf } from './lines.js';
import type { Scanner } from './scan.js';

function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** JSON lines: one object per line; the first object's keys, in order, are the header. */
export const jsonLinesScanner: Scanner = async (path, handlers, signal) => {
  let names: string[] | undefined;
  let row = 0;
  for await (const line of linesOf(path, signal)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw new LiftError('SURFACE_CHANGED', `Line ${row + 1} of ${path} is not JSON.`, { cause: error });
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new LiftError('SURFACE_CHANGED', `Line ${row + 1} of ${path} is not a JSON object.`);
    }
    const record = parsed as Record<string, unknown>;
    if (!names) {
      names = Object.keys(record);
      handlers.header(names);
    }
    row++;
    if (
      handlers.row(
        names.map((name) => cellOf(record[name])),
        row,
      ) === false
    )
      return;
  }
  if (!names) handlers.header([]);
};
