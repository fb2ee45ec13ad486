import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../contract/paths.js';
import type { Scrubber } from '../store/secrets.js';

export const DEFAULT_CAP_CHARS = 4_000;
const LONG_STRING = 400;

export interface CapResult {
  fields: Record<string, unknown>;
  truncated: boolean;
  overflowFile?: string;
}

function size(value: unknown): number {
  return JSON.stringify(value).length;
}

/** Cuts arrays to `rows` items, anywhere in the value. */
function limitRows(value: unknown, rows: number): { value: unknown; cut: boolean } {
  if (Array.isArray(value)) {
    let cut = value.length > rows;
    const items = value.slice(0, rows).map((item) => {
      const inner = limitRows(item, rows);
      cut ||= inner.cut;
      return inner.value;
    });
    return { value: items, cut };
  }
  if (value && typeof value === 'object') {
    let cut = false;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const inner = limitRows(item, rows);
      cut ||= inner.cut;
      out[key] = inner.value;
    }
    return { value: out, cut };
  }
  return { value, cut: false };
}

/** The longest array in the value, to halve next. */
function longestArray(value: unknown): unknown[] | undefined {
  let best: unknown[] | undefined;
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      if (!best || node.length > best.length) best = node;
      node.forEach(visit);
    } else if (node && typeof node === 'object') {
      Object.values(node).forEach(visit);
    }
  };
  visit(value);
  return best;
}

function shortenStrings(value: unknown): unknown {
  if (typeof value === 'string' && value.length > LONG_STRING) {
    return `${value.slice(0, LONG_STRING)}… [${value.length - LONG_STRING} more characters]`;
  }
  if (Array.isArray(value)) return value.map(shortenStrings);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shortenStrings(item)]));
  }
  return value;
}

/**
 * Keeps the fields under the cap. When anything is cut, the full payload goes to a file
 * (scrubbed of secrets) so nothing is lost, and the envelope says so.
 */
export function capFields(
  fields: Record<string, unknown>,
  options: {
    chars?: number | undefined;
    rows?: number | undefined;
    overflowDir: string;
    runId: string;
    secrets: Pick<Scrubber, 'scrubbedJson'>;
  },
): CapResult {
  const chars = options.chars ?? DEFAULT_CAP_CHARS;
  let current: unknown = fields;
  let truncated = false;
  if (options.rows !== undefined) {
    const limited = limitRows(current, options.rows);
    current = limited.value;
    truncated = limited.cut;
  }
  if (size(current) > chars) {
    current = structuredClone(current);
    truncated = true;
    for (let guard = 0; guard < 64 && size(current) > chars; guard++) {
      const array = longestArray(current);
      if (!array || array.length <= 1) break;
      array.splice(Math.ceil(array.length / 2));
    }
    if (size(current) > chars) current = shortenStrings(current);
  }
  if (!truncated) return { fields, truncated: false };
  mkdirSync(options.overflowDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const overflowFile = join(options.overflowDir, `${options.runId}.json`);
  writeFileSync(overflowFile, options.secrets.scrubbedJson(fields, 2), { mode: PRIVATE_FILE_MODE });
  return { fields: current as Record<string, unknown>, truncated: true, overflowFile };
}
