import { LiftError } from '../../contract/errors.js';
import {
  type Cell,
  type ColumnSpec,
  coerce,
  headerDifference,
  surfaceChanged,
  typeChanged,
  type Value,
} from './columns.js';
import { compileFilters, type Filter } from './filter.js';
import { type ExportFile, listExports } from './newest.js';
import type { ExportFormat } from './sources/index.js';

/** What a tool declares about one scheduled export: where it lands, its format and header, how fresh it must be. */
export interface ExportContract {
  dir: string;
  /** Names of finished exports of this kind. */
  pattern: RegExp;
  format: ExportFormat;
  columns: ColumnSpec[];
  /** Older than this, the export is flagged stale. */
  maxAgeMs: number;
  /** The export's own timestamp, read from its name; without it the file's mtime is used. */
  asOfFromName?: (name: string) => Date | undefined;
}

export interface ExportQuery {
  filters?: readonly Filter[];
  /** At most this many matching rows are returned; the rest stay on disk and are counted. */
  limit: number;
  signal?: AbortSignal;
  /** Read this export instead of the newest (a settle read pinned to one file). */
  file?: ExportFile;
}

export interface ExportRead {
  file: string;
  as_of: string;
  as_of_source: 'export' | 'file_mtime';
  age_seconds: number;
  max_age_seconds: number;
  stale: boolean;
  columns: string[];
  rows: Array<Record<string, Value>>;
  /** Rows that passed the filters, all of them counted though at most `limit` are returned. */
  matched: number;
  /** Data rows read from the file. */
  scanned: number;
  truncated: boolean;
}

export function newestExport(contract: ExportContract): ExportFile {
  const [newest] = listExports(contract.dir, contract.pattern, contract.asOfFromName);
  if (!newest) {
    throw new LiftError('NOT_FOUND', `No export matching ${contract.pattern} is in ${contract.dir} yet.`, {
      hint: 'The program has not written its scheduled export yet. Wait for its schedule, then read again.',
    });
  }
  return newest;
}

function typedRow(
  file: string,
  columns: readonly ColumnSpec[],
  cells: readonly Cell[],
  row: number,
): Record<string, Value> {
  const out: Record<string, Value> = {};
  columns.forEach((column, index) => {
    const value = coerce(column.type, cells[index]);
    if (value === undefined) throw typeChanged(file, row, column, cells[index]);
    out[column.name] = value;
  });
  return out;
}

/**
 * Reads one export the way the contract says it looks. The header (names, order, count) is
 * checked before any row, and the first row's types too: a difference is SURFACE_CHANGED
 * naming it. Rows are filtered while they stream by; at most `limit` come back, all matches
 * are counted, and the file is never held in memory.
 */
export async function readExport(contract: ExportContract, query: ExportQuery): Promise<ExportRead> {
  const predicate = compileFilters(query.filters ?? [], contract.columns);
  const file = query.file ?? newestExport(contract);
  const rows: Array<Record<string, Value>> = [];
  let matched = 0;
  let scanned = 0;
  let header: string[] = [];
  // The format readers load on the first read, not with the tools that declare an export.
  const { scannerFor } = await import('./sources/index.js');
  const scan = scannerFor(contract.format, contract.columns);
  await scan(
    file.path,
    {
      header: (names) => {
        header = names;
        const difference = headerDifference(contract.columns, names);
        if (difference) throw surfaceChanged(file.name, difference, contract.columns, names);
      },
      row: (cells, row) => {
        scanned = row;
        if (row === 1) typedRow(file.name, contract.columns, cells, row);
        if (!predicate(cells)) return undefined;
        matched++;
        if (rows.length < query.limit) rows.push(typedRow(file.name, contract.columns, cells, row));
        return undefined;
      },
    },
    query.signal,
  );
  const ageMs = Math.max(0, Date.now() - file.asOf.getTime());
  return {
    file: file.path,
    as_of: file.asOf.toISOString(),
    as_of_source: file.asOfSource,
    age_seconds: Math.round(ageMs / 100) / 10,
    max_age_seconds: contract.maxAgeMs / 1000,
    stale: ageMs > contract.maxAgeMs,
    columns: header,
    rows,
    matched,
    scanned,
    truncated: matched > rows.length,
  };
}

/** The `narrow` text of a truncated read: which columns a filter can use. */
export function narrowHint(contract: ExportContract): string {
  const names = contract.columns.map((column) => `${column.name} (${column.type})`).join(', ');
  return `Only the first rows came back; the rest stay on disk. Add filters on named columns ({column, op: eq|ne|lt|lte|gt|gte|contains|prefix|in, value}): ${names}.`;
}
