import { literalPattern } from '../contract/pattern.js';

// `{{input.NAME}}` in a capability's strings: found, filled and bound here, apart from the
// stored format (capability.ts re-exports them, so callers keep one import).
const PLACEHOLDER = /\{\{input\.([a-zA-Z][a-zA-Z0-9_]*)\}\}/g;

/** Names of inputs referred to as `{{input.NAME}}` in any string of a value. */
export function placeholdersIn(value: unknown): string[] {
  const names: string[] = [];
  const visit = (node: unknown) => {
    if (typeof node === 'string') for (const match of node.matchAll(PLACEHOLDER)) names.push(match[1]!);
    else if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') Object.values(node).forEach(visit);
  };
  visit(value);
  return names;
}

/** A template's text with each `{{input.NAME}}` replaced (and encoded, for a URL). */
export function fillTemplate(
  template: string,
  inputs: Record<string, unknown>,
  encode: (value: string) => string = (value) => value,
): string {
  return template.replace(PLACEHOLDER, (_, name: string) => encode(String(inputs[name] ?? '')));
}

/**
 * Replaces `{{input.NAME}}` in every string of a value with the bound input; in a text
 * pattern (a `pattern` field) as literal text, so a value such as "v1.2 (beta)" matches itself.
 */
export function bindPlaceholders<T>(value: T, inputs: Record<string, unknown>): T {
  const visit = (node: unknown, key?: string): unknown => {
    if (typeof node === 'string')
      return node.replace(PLACEHOLDER, (_, name: string) => {
        const bound = String(inputs[name] ?? '');
        return key === 'pattern' ? literalPattern(bound) : bound;
      });
    if (Array.isArray(node)) return node.map((item) => visit(item));
    if (node && typeof node === 'object')
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, visit(v, k)]));
    return node;
  };
  return visit(value) as T;
}
