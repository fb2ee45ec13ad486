import { createRequire } from 'node:module';
import { LiftError } from '../../contract/errors.js';
import type { CapturedStream } from './capture.js';

const require = createRequire(import.meta.url);

/** csv-parse's synchronous parser, required on the first CSV a program prints (not when tools are declared). */
function parseCsv(
  text: string,
  options: { relax_column_count: boolean; skip_empty_lines: boolean },
): unknown {
  return (require('csv-parse/sync') as typeof import('csv-parse/sync')).parse(text, options);
}

/**
 * How a tool reads a program's standard output into fields. A parse failure means the
 * program no longer prints what the tool was built for: SURFACE_CHANGED, with a sample.
 */
export type OutputParser =
  | { kind: 'json' }
  | { kind: 'lines' }
  /** Comma-separated values with a header row that must equal `columns` (any header when omitted). */
  | { kind: 'csv'; columns?: readonly string[] }
  /** Every non-empty line not matching `skip` must match `pattern`; its named groups become a row. */
  | { kind: 'regex'; pattern: RegExp; skip?: RegExp }
  /** A human table: a header line with these column titles, rows cut at the titles' positions. */
  | { kind: 'columns'; header: readonly string[]; skip?: RegExp };

export type Row = Record<string, string>;

export interface Parsed<T> {
  value: T;
  /** True when the output was cut and only its complete leading part was parsed. */
  truncated: boolean;
}

const SAMPLE = 300;

function surfaceChanged(program: string, what: string, text: string): LiftError {
  const sample = text.length > SAMPLE ? `${text.slice(0, SAMPLE)}…` : text;
  return new LiftError('SURFACE_CHANGED', `The output of ${program} no longer parses: ${what}.`, {
    hint: `The program printed something the tool was not built for. Sample: ${JSON.stringify(sample)}. Update the tool's parser, or rediscover the program; do not retry as is.`,
    details: { sample },
  });
}

/** The part of the output that is contiguous from the start, without a cut partial last line. */
function parsableText(stream: CapturedStream): string {
  if (!stream.truncated) return stream.text;
  const end = stream.head.lastIndexOf('\n');
  return end < 0 ? '' : stream.head.slice(0, end + 1);
}

function nonEmptyLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim().length > 0);
}

export function parseJson(program: string, stream: CapturedStream): Parsed<unknown> {
  if (stream.truncated)
    throw surfaceChanged(program, 'JSON output exceeded the cap and was cut', stream.head);
  try {
    return { value: JSON.parse(stream.text), truncated: false };
  } catch (error) {
    throw surfaceChanged(
      program,
      `not JSON (${error instanceof Error ? error.message : String(error)})`,
      stream.text,
    );
  }
}

export function parseLines(stream: CapturedStream): Parsed<string[]> {
  return { value: nonEmptyLines(parsableText(stream)), truncated: stream.truncated };
}

export function parseCsvRows(
  program: string,
  stream: CapturedStream,
  columns?: readonly string[],
): Parsed<Row[]> {
  const text = parsableText(stream);
  let records: string[][];
  try {
    records = parseCsv(text, { relax_column_count: false, skip_empty_lines: true }) as string[][];
  } catch (error) {
    throw surfaceChanged(
      program,
      `not CSV (${error instanceof Error ? error.message : String(error)})`,
      text,
    );
  }
  const [header, ...rows] = records;
  if (!header || (columns && header.join(',') !== columns.join(','))) {
    const expected = columns ? `, expected ${JSON.stringify(columns)}` : '';
    throw surfaceChanged(program, `CSV header is ${JSON.stringify(header ?? [])}${expected}`, text);
  }
  const value = rows.map((cells) =>
    Object.fromEntries(header.map((column, index) => [column, cells[index] ?? ''])),
  );
  return { value, truncated: stream.truncated };
}

export function parseRegexRows(
  program: string,
  stream: CapturedStream,
  pattern: RegExp,
  skip?: RegExp,
): Parsed<Row[]> {
  const rows: Row[] = [];
  for (const line of nonEmptyLines(parsableText(stream))) {
    if (skip?.test(line)) continue;
    const match = pattern.exec(line);
    if (!match) throw surfaceChanged(program, `line does not match ${pattern}`, line);
    rows.push({ ...(match.groups ?? {}) });
  }
  return { value: rows, truncated: stream.truncated };
}

const RULE = /^[\s\-=+|]+$/;

/**
 * Where each column starts: from the runs of dashes of a rule line under the header when
 * there is one (right-aligned numbers then stay in their column), else from the titles.
 */
function columnStarts(headerLine: string, ruleLine: string | undefined, header: readonly string[]): number[] {
  if (ruleLine !== undefined && RULE.test(ruleLine)) {
    const runs = [...ruleLine.matchAll(/[-=]+/g)].map((match) => match.index ?? 0);
    if (runs.length === header.length) return runs;
  }
  return header.map((title) => headerLine.indexOf(title));
}

/** A human table: the header line is found by its titles, rows are cut at the column starts. */
export function parseColumns(
  program: string,
  stream: CapturedStream,
  header: readonly string[],
  skip?: RegExp,
): Parsed<Row[]> {
  const lines = nonEmptyLines(parsableText(stream));
  const headerIndex = lines.findIndex((line) => header.every((title) => line.includes(title)));
  const headerLine = lines[headerIndex];
  if (headerLine === undefined) {
    throw surfaceChanged(
      program,
      `no header line with columns ${header.join(', ')}`,
      lines.slice(0, 5).join('\n'),
    );
  }
  const titles = header.map((title) => headerLine.indexOf(title));
  if (titles.some((start, index) => index > 0 && start <= (titles[index - 1] ?? -1))) {
    throw surfaceChanged(program, `columns are not in the order ${header.join(', ')}`, headerLine);
  }
  const starts = columnStarts(headerLine, lines[headerIndex + 1], header);
  const rows: Row[] = [];
  for (const line of lines.slice(headerIndex + 1)) {
    if (skip?.test(line) || RULE.test(line)) continue;
    const row: Row = {};
    header.forEach((title, index) => {
      row[title] = line.slice(starts[index], starts[index + 1]).trim();
    });
    rows.push(row);
  }
  return { value: rows, truncated: stream.truncated };
}

/** Parses standard output with the tool's parser. */
export function parseOutput(program: string, stream: CapturedStream, parser: OutputParser): Parsed<unknown> {
  switch (parser.kind) {
    case 'json':
      return parseJson(program, stream);
    case 'lines':
      return parseLines(stream);
    case 'csv':
      return parseCsvRows(program, stream, parser.columns);
    case 'regex':
      return parseRegexRows(program, stream, parser.pattern, parser.skip);
    case 'columns':
      return parseColumns(program, stream, parser.header, parser.skip);
  }
}
