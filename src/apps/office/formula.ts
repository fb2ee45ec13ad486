import { LiftError } from '../../contract/errors.js';

/**
 * Functions a plan may use: each is computed the same way by LibreOffice and by the
 * independent engine (HyperFormula), so every value can be checked.
 */
export const FUNCTIONS = new Set([
  'ABS',
  'AND',
  'AVERAGE',
  'AVERAGEIF',
  'CHOOSE',
  'CONCATENATE',
  'COUNT',
  'COUNTA',
  'COUNTIF',
  'COUNTIFS',
  'FALSE',
  'IF',
  'IFERROR',
  'INT',
  'LARGE',
  'LEFT',
  'LEN',
  'LOWER',
  'MAX',
  'MEDIAN',
  'MID',
  'MIN',
  'MOD',
  'NOT',
  'OR',
  'POWER',
  'PRODUCT',
  'RIGHT',
  'ROUND',
  'ROUNDDOWN',
  'ROUNDUP',
  'SMALL',
  'SQRT',
  'STDEV',
  'SUM',
  'SUMIF',
  'SUMIFS',
  'SUMPRODUCT',
  'TRIM',
  'TRUE',
  'UPPER',
]);

export const FORMULA_HINT =
  "Write column names in brackets, never cell addresses: '[Qty] * [Price]' or 'ROUND([Obtained] / [Total] * 100, 1)' " +
  "use the same row's values; '[Marks!Total]' is the whole Total column of sheet Marks, for aggregates like " +
  "'MAX([Marks!Total])'. Code writes every cell address, so the formulas stay right when rows move.";

/** A bracketed name: `[Total]` (this row, or the only table's column) or `[Marks!Total]` (a whole column). */
export interface ColumnReference {
  sheet: string | undefined;
  column: string;
}

type Token =
  | { kind: 'string'; text: string }
  | { kind: 'reference'; reference: ColumnReference; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'name'; text: string }
  | { kind: 'operator'; text: string };

export const CELL_ADDRESS = /^\$?[A-Za-z]{1,3}\$?\d+(:\$?[A-Za-z]{1,3}\$?\d+)?$/;
const OPERATORS = ['<>', '<=', '>=', '+', '-', '*', '/', '^', '&', '=', '<', '>', '(', ')', ',', '%'];

export function refuse(where: string, formula: string, problem: string): never {
  throw new LiftError('BAD_INPUT', `${where}: ${problem} in formula '${formula}'.`, {
    hint: FORMULA_HINT,
    outcome: 'not_started',
    details: { where, formula },
  });
}

/** Splits a plan formula into tokens, refusing cell addresses and anything the engines might read differently. */
export function tokenize(formula: string, where: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  const source = formula.trim().replace(/^=/, '');
  while (at < source.length) {
    const rest = source.slice(at);
    const char = source[at]!;
    if (/\s/.test(char)) {
      at += 1;
      continue;
    }
    if (char === '"') {
      const match = /^"(?:[^"]|"")*"/.exec(rest);
      if (!match) refuse(where, formula, 'a text in quotes is not closed');
      tokens.push({ kind: 'string', text: match[0] });
      at += match[0].length;
      continue;
    }
    if (char === '[') {
      const match = /^\[([^\][]+)\]/.exec(rest);
      if (!match) refuse(where, formula, 'a bracket is not closed');
      const inner = match[1]!.trim();
      const bang = inner.indexOf('!');
      const reference =
        bang === -1
          ? { sheet: undefined, column: inner }
          : {
              sheet: inner.slice(0, bang).trim().replace(/^'|'$/g, ''),
              column: inner.slice(bang + 1).trim(),
            };
      tokens.push({ kind: 'reference', reference, text: match[0] });
      at += match[0].length;
      continue;
    }
    const number = /^\d+(\.\d+)?([eE][+-]?\d+)?/.exec(rest);
    if (number) {
      if (/^[A-Za-z$:]/.test(rest.slice(number[0].length)))
        refuse(where, formula, `'${rest.split(/[\s,()]/)[0]}' is a cell address`);
      tokens.push({ kind: 'number', text: number[0] });
      at += number[0].length;
      continue;
    }
    const name = /^\$?[A-Za-z_][A-Za-z0-9_.$]*/.exec(rest);
    if (name) {
      const word = name[0];
      const after = source.slice(at + word.length);
      if (CELL_ADDRESS.test(word) || word.includes('$') || /^\s*[:!]/.test(after)) {
        refuse(
          where,
          formula,
          `'${word}${/^\s*[:!]/.test(after) ? after.trim().split(/[\s,()+\-*/]/)[0] : ''}' is a cell address`,
        );
      }
      tokens.push({ kind: 'name', text: word });
      at += word.length;
      continue;
    }
    const operator = OPERATORS.find((candidate) => rest.startsWith(candidate));
    if (!operator) {
      const why =
        char === ';' ? "';' separates arguments in some locales; use ','" : `'${char}' is not allowed`;
      refuse(where, formula, why);
    }
    tokens.push({ kind: 'operator', text: operator });
    at += operator.length;
  }
  if (tokens.length === 0) refuse(where, formula, 'the formula is empty');
  checkNames(tokens, where, formula);
  return tokens;
}

function checkNames(tokens: Token[], where: string, formula: string): void {
  tokens.forEach((token, index) => {
    if (token.kind !== 'name') return;
    const upper = token.text.toUpperCase();
    const isCall = tokens[index + 1]?.text === '(';
    if (isCall && !FUNCTIONS.has(upper)) {
      refuse(
        where,
        formula,
        `${token.text}() is not a function this tool can check (use one of ${[...FUNCTIONS].join(', ')})`,
      );
    }
    if (!isCall && upper !== 'TRUE' && upper !== 'FALSE') {
      refuse(where, formula, `'${token.text}' is neither a function nor a [column name] in brackets`);
    }
  });
}

/** Column references in a formula, in order. */
export function referencesOf(tokens: Token[]): ColumnReference[] {
  return tokens.flatMap((token) => (token.kind === 'reference' ? [token.reference] : []));
}

/**
 * Writes the cell formula (without '='): every bracketed name becomes what `resolve` says
 * (a cell like G2 or a range like 'Marks'!$G$2:$G$9); whitespace outside texts is dropped.
 */
export function translate(tokens: Token[], resolve: (reference: ColumnReference) => string): string {
  return tokens
    .map((token) => {
      if (token.kind === 'reference') return resolve(token.reference);
      if (token.kind === 'name') return token.text.toUpperCase();
      return token.text;
    })
    .join('');
}

/** A1-style column letters for a zero-based column index. */
export function columnLetters(index: number): string {
  let letters = '';
  let rest = index + 1;
  while (rest > 0) {
    const remainder = (rest - 1) % 26;
    letters = String.fromCharCode(65 + remainder) + letters;
    rest = Math.floor((rest - 1) / 26);
  }
  return letters;
}

export function cellAddress(column: number, row: number): string {
  return `${columnLetters(column)}${row + 1}`;
}

export function quotedSheet(name: string): string {
  return `'${name.replace(/'/g, "''")}'`;
}
