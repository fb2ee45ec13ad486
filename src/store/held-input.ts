import { LiftError } from '../contract/errors.js';
import { secretForm } from './secret-forms.js';
import { placeholder, type SecretStore } from './secrets.js';

/** [start, end, secret name, form id] of one placeholder in a masked string. */
export type MaskSpan = [number, number, string, string];

/** Where a held input had a secret: the path to the string, and the placeholders in it. */
export interface SecretMask {
  /** Keys and indexes from the input's root to the string (or the key) that held it. */
  path: Array<string | number>;
  /** The value was a number, kept as a masked string. */
  number?: true;
  /** The secret sat in the last key of the path, not in its value. */
  key?: true;
  spans: MaskSpan[];
}

export interface MaskedInput {
  input: unknown;
  masks: SecretMask[];
}

/**
 * A held call's input as it is stored: every stored secret, in any form, replaced by its
 * placeholder, and a note of where, so that the approved call gets the value back from the
 * secret store, in the same form, and nothing else is touched (a placeholder someone
 * typed stays text). The masks hold names and offsets, never values.
 */
export function maskInput(input: unknown, secrets: SecretStore): MaskedInput {
  const masks: SecretMask[] = [];
  const walk = (value: unknown, path: Array<string | number>): unknown => {
    if (typeof value === 'string' || typeof value === 'number') {
      const masked = maskText(String(value), secrets);
      if (!masked) return value;
      masks.push({
        path,
        ...(typeof value === 'number' ? { number: true as const } : {}),
        spans: masked.spans,
      });
      return masked.text;
    }
    if (Array.isArray(value)) return value.map((item, index) => walk(item, [...path, index]));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const masked = maskText(key, secrets);
      const shownKey = masked ? masked.text : key;
      if (masked) masks.push({ path: [...path, shownKey], key: true, spans: masked.spans });
      out[shownKey] = walk(item, [...path, shownKey]);
    }
    return out;
  };
  return { input: walk(input, []), masks };
}

/** The text with each secret in it replaced by its placeholder, and where they are. */
function maskText(value: string, secrets: SecretStore): { text: string; spans: MaskSpan[] } | undefined {
  const found = secrets.find(value);
  if (found.length === 0) return undefined;
  let text = '';
  let at = 0;
  const spans: MaskSpan[] = [];
  for (const match of found) {
    text += value.slice(at, match.start);
    const shown = placeholder(match);
    spans.push([text.length, text.length + shown.length, match.name, match.form.id]);
    text += shown;
    at = match.end;
  }
  return { text: text + value.slice(at), spans };
}

/**
 * The input a held call was asked with, its secrets read again from the store. A secret
 * no longer stored answers AUTH_REQUIRED, before anything runs.
 */
export function unmaskInput(masked: MaskedInput, secrets: SecretStore): unknown {
  if (masked.masks.length === 0) return masked.input;
  let input = structuredClone(masked.input);
  // Values first, then keys from the deepest up: each path still names the masked keys above it.
  const ordered = [
    ...masked.masks.filter((mask) => !mask.key),
    ...masked.masks.filter((mask) => mask.key).sort((a, b) => b.path.length - a.path.length),
  ];
  for (const mask of ordered) {
    const parent = mask.path.slice(0, -1).reduce<unknown>((node, step) => (node as never)[step], input);
    const last = mask.path.at(-1);
    if (last === undefined) {
      input = restored(String(input), mask, secrets);
      continue;
    }
    const holder = parent as Record<string | number, unknown>;
    if (mask.key) {
      const value = holder[last];
      delete holder[last];
      holder[restored(String(last), mask, secrets) as string] = value;
    } else holder[last] = restored(String(holder[last]), mask, secrets);
  }
  return input;
}

function restored(text: string, mask: SecretMask, secrets: SecretStore): string | number {
  let out = text;
  for (const [start, end, name, formId] of [...mask.spans].reverse()) {
    const form = secretForm(formId);
    if (!form || out.slice(start, end) !== placeholder({ name, form }))
      throw new LiftError('INTERNAL_ERROR', 'A held input was changed after it was stored; it will not run.');
    out = `${out.slice(0, start)}${form.encode(secrets.get(name))}${out.slice(end)}`;
  }
  return mask.number ? Number(out) : out;
}
