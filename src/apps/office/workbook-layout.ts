import { LiftError } from '../../contract/errors.js';
import { alone, fittedWidths } from './column-widths.js';
import {
  CELL_ADDRESS,
  type ColumnReference,
  cellAddress,
  columnLetters,
  FORMULA_HINT,
  quotedSheet,
  refuse,
  tokenize,
  translate,
} from './formula.js';
import type { Aggregate, ColumnType, SummarySheet, TableSheet, WorkbookPlan } from './workbook-plan.js';

/** One cell as code lays it out: a constant, or a formula code wrote (without '='). */
export interface LaidCell {
  row: number;
  column: number;
  value?: string | number | boolean;
  formula?: string;
  type?: ColumnType | undefined;
  header?: boolean;
  /** How a person would name this computed cell: "Percentage, row 5 (Ravi Kumar)". */
  label?: string;
  /** The text a formula cell shows when code knows it (a copied name), for the column width. */
  shows?: string;
}

export interface LaidChart {
  name: string;
  title: string;
  type: 'column' | 'bar' | 'line' | 'pie';
  /** The sheet the chart sits on and the sheet its numbers come from. */
  sheet: string;
  sourceSheet: string;
  /** [first column, first row, last column, last row], zero-based, header row first. */
  range: [number, number, number, number];
  anchor: [number, number];
}

export interface LaidSheet {
  name: string;
  cells: LaidCell[];
  widths: number[];
}

export interface WorkbookLayout {
  sheets: LaidSheet[];
  charts: LaidChart[];
}

interface TableShape {
  sheet: TableSheet;
  names: string[];
  columns: Array<{ name: string; type: ColumnType | undefined; formula: string | undefined }>;
  firstRow: number;
  lastRow: number;
}

const AGGREGATE_FUNCTION: Record<Aggregate, string> = {
  sum: 'SUM',
  average: 'AVERAGE',
  min: 'MIN',
  max: 'MAX',
  count: 'COUNT',
  median: 'MEDIAN',
};

function badInput(message: string, hint: string): never {
  throw new LiftError('BAD_INPUT', message, { hint, outcome: 'not_started' });
}

function shapeOf(sheet: TableSheet): TableShape {
  const columns = sheet.columns.map((column) =>
    typeof column === 'string'
      ? { name: column, type: undefined, formula: undefined }
      : { name: column.name, type: column.type, formula: column.formula },
  );
  const names = columns.map((column) => column.name);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate)
    badInput(
      `Sheet ${sheet.name} has two columns named '${duplicate}'.`,
      'Give every column a distinct name.',
    );
  return { sheet, names, columns, firstRow: 1, lastRow: sheet.rows.length };
}

/** Reads a plan's rows: values of the data columns, with computed columns left out or null. */
function rowValues(shape: TableShape, row: Array<string | number | boolean | null>, index: number) {
  const dataColumns = shape.columns.filter((column) => column.formula === undefined).length;
  if (row.length === shape.columns.length) {
    shape.columns.forEach((column, position) => {
      if (column.formula !== undefined && row[position] !== null) {
        badInput(
          `Sheet ${shape.sheet.name}, row ${index + 1} gives a value for the computed column '${column.name}'.`,
          'Leave computed columns out of the rows (or null); code writes their formulas.',
        );
      }
    });
    return row;
  }
  if (row.length !== dataColumns) {
    badInput(
      `Sheet ${shape.sheet.name}, row ${index + 1} has ${row.length} values; expected ${dataColumns} (the data columns) or ${shape.columns.length}.`,
      `Give one value per data column, in order: ${shape.columns
        .filter((column) => column.formula === undefined)
        .map((column) => column.name)
        .join(', ')}.`,
    );
  }
  let next = 0;
  return shape.columns.map((column) => (column.formula === undefined ? (row[next++] ?? null) : null));
}

/** Lays out every sheet of a plan as cells: what the xlsx writer writes and the independent engine computes. */
export function layOut(plan: WorkbookPlan): WorkbookLayout {
  const names = plan.sheets.map((sheet) => sheet.name);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate) badInput(`Two sheets are named '${duplicate}'.`, 'Give every sheet a distinct name.');
  const tables = new Map<string, TableShape>();
  for (const sheet of plan.sheets) if (sheet.kind === 'table') tables.set(sheet.name, shapeOf(sheet));

  const wholeColumn = (reference: ColumnReference, where: string, formula: string): string => {
    const table =
      reference.sheet === undefined ? onlyTable(tables, where, formula) : tables.get(reference.sheet);
    if (!table)
      refuse(
        where,
        formula,
        `there is no table sheet named '${reference.sheet}' (tables: ${[...tables.keys()].join(', ')})`,
      );
    const column = columnIndex(table, reference.column, where, formula);
    const letters = columnLetters(column);
    return `${quotedSheet(table.sheet.name)}!$${letters}$${table.firstRow + 1}:$${letters}$${table.lastRow + 1}`;
  };

  const sheets: LaidSheet[] = [];
  const charts: LaidChart[] = [];
  for (const sheet of plan.sheets) {
    if (sheet.kind === 'table') sheets.push(layOutTable(tables.get(sheet.name)!, wholeColumn));
    else sheets.push(layOutSummary(sheet, tables, wholeColumn, charts));
  }
  return { sheets, charts };
}

function onlyTable(tables: Map<string, TableShape>, where: string, formula: string): TableShape {
  if (tables.size !== 1)
    refuse(
      where,
      formula,
      `name the sheet of each column, like [Marks!Total] (tables: ${[...tables.keys()].join(', ')})`,
    );
  return [...tables.values()][0]!;
}

function columnIndex(table: TableShape, name: string, where: string, formula: string): number {
  const index = table.names.indexOf(name);
  if (index !== -1) return index;
  if (CELL_ADDRESS.test(name)) refuse(where, formula, `'[${name}]' is a cell address, not a column name`);
  return refuse(
    where,
    formula,
    `sheet ${table.sheet.name} has no column '${name}' (columns: ${table.names.join(', ')})`,
  );
}

function layOutTable(
  shape: TableShape,
  wholeColumn: (reference: ColumnReference, where: string, formula: string) => string,
): LaidSheet {
  const { sheet } = shape;
  const cells: LaidCell[] = shape.columns.map((column, index) => ({
    row: 0,
    column: index,
    value: column.name,
    header: true,
  }));
  const rows = sheet.rows.map((row, index) => rowValues(shape, row, index));
  const labelColumn = shape.columns.findIndex(
    (column, index) =>
      column.formula === undefined && rows.some((values) => typeof values[index] === 'string'),
  );
  const rowName = (index: number) => {
    const named = rows[index]?.find((value) => typeof value === 'string');
    return named === undefined ? '' : ` (${named})`;
  };

  const formulas = shape.columns.map((column, position) => {
    if (column.formula === undefined) return undefined;
    const where = `Sheet ${sheet.name}, column ${column.name}`;
    const tokens = tokenize(column.formula, where);
    return (row: number) =>
      translate(tokens, (reference) => {
        if (reference.sheet !== undefined && reference.sheet !== sheet.name)
          return wholeColumn(reference, where, column.formula!);
        if (reference.sheet !== undefined) return wholeColumn(reference, where, column.formula!);
        const index = columnIndex(shape, reference.column, where, column.formula!);
        if (index === position) refuse(where, column.formula!, `column '${column.name}' refers to itself`);
        return cellAddress(index, row);
      });
  });

  rows.forEach((values, index) => {
    const row = shape.firstRow + index;
    shape.columns.forEach((column, position) => {
      const formula = formulas[position];
      if (formula) {
        cells.push({
          row,
          column: position,
          formula: formula(row),
          type: column.type,
          label: `${column.name}, row ${index + 1}${rowName(index)}`,
        });
        return;
      }
      const value = values[position];
      if (value !== null && value !== undefined)
        cells.push({ row, column: position, value, type: column.type });
    });
  });

  if (sheet.total) {
    const row = shape.lastRow + 1;
    const totals = Object.entries(sheet.total);
    for (const [name, aggregate] of totals) {
      const index = columnIndex(shape, name, `Sheet ${sheet.name}, total`, name);
      const letters = columnLetters(index);
      cells.push({
        row,
        column: index,
        formula: `${AGGREGATE_FUNCTION[aggregate]}(${letters}${shape.firstRow + 1}:${letters}${shape.lastRow + 1})`,
        type: aggregate === 'count' ? 'integer' : shape.columns[index]?.type,
        label: `${name}, ${aggregate} row`,
      });
    }
    const labelAt = Math.max(labelColumn, 0);
    if (!totals.some(([name]) => shape.names.indexOf(name) === labelAt)) {
      cells.push({ row, column: labelAt, value: sheet.total_label ?? 'Total', header: true });
    }
  }
  return { name: sheet.name, cells, widths: fittedWidths(cells, shape.columns.length, 8) };
}

function layOutSummary(
  sheet: SummarySheet,
  tables: Map<string, TableShape>,
  wholeColumn: (reference: ColumnReference, where: string, formula: string) => string,
  charts: LaidChart[],
): LaidSheet {
  const cells: LaidCell[] = [];
  let row = 0;
  if (sheet.metrics.length > 0) {
    cells.push(
      { row, column: 0, value: 'Metric', header: true },
      { row, column: 1, value: 'Value', header: true },
    );
    row += 1;
    for (const metric of sheet.metrics) {
      const where = `Sheet ${sheet.name}, metric ${metric.label}`;
      const source =
        metric.formula ??
        `${AGGREGATE_FUNCTION[metric.aggregate!]}([${metric.sheet ? `${metric.sheet}!` : ''}${metric.column}])`;
      const tokens = tokenize(source, where);
      const formula = translate(tokens, (reference) => wholeColumn(reference, where, source));
      cells.push({ row, column: 0, value: metric.label });
      cells.push({ row, column: 1, formula, type: metric.type, label: metric.label });
      row += 1;
    }
    row += 1;
  }
  let width = 2;
  sheet.groups.forEach((group) => {
    const where = `Sheet ${sheet.name}, group ${group.title}`;
    const table = group.from === undefined ? onlyTable(tables, where, group.title) : tables.get(group.from);
    if (!table) badInput(`${where}: there is no table sheet named '${group.from}'.`, FORMULA_HINT);
    const columns = [group.label_column, ...group.value_columns].map((name) =>
      columnIndex(table, name, where, name),
    );
    const top = row;
    cells.push({ row, column: 0, value: group.title, header: true });
    row += 1;
    columns.forEach((column, position) => {
      cells.push({ row, column: position, value: table.names[column]!, header: true });
    });
    for (let source = table.firstRow; source <= table.lastRow; source++) {
      row += 1;
      columns.forEach((column, position) => {
        const copied = table.sheet.rows[source - table.firstRow]?.[column];
        cells.push({
          row,
          column: position,
          formula: `${quotedSheet(table.sheet.name)}!${cellAddress(column, source)}`,
          type: table.columns[column]?.type,
          ...(typeof copied === 'string' ? { shows: copied } : {}),
          ...(position === 0 ? {} : { label: `${group.title}: ${table.names[column]}, row ${source}` }),
        });
      });
    }
    width = Math.max(width, columns.length);
    if (group.chart !== 'none') {
      charts.push({
        name: `chart${charts.length + 1}`,
        title: group.title,
        type: group.chart,
        sheet: sheet.name,
        sourceSheet: sheet.name,
        range: [0, top + 1, columns.length - 1, row],
        anchor: [8, charts.length * 20],
      });
    }
    row += 2;
  });
  // A group's title sits alone on its row and may run on into the empty cells beside it.
  const fitted = cells.filter((cell) => !(cell.header && cell.column === 0 && alone(cells, cell)));
  return { name: sheet.name, cells, widths: fittedWidths(fitted, width, 14) };
}
