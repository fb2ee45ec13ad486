import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LiftError } from '../contract/errors.js';
import { PRIVATE_DIR_MODE } from '../contract/paths.js';
import { literalPattern } from './literal-pattern.js';
import { SECRET_FORMS, type SecretForm } from './secret-forms.js';

const ENV_PREFIX = 'LIFT_SECRET_';
const NAME = /^[a-z][a-z0-9_]*$/;

function normalise(name: string): string {
  return name.toLowerCase();
}

/**
 * Named secrets from `.lift/secrets.json` (mode 600) and LIFT_SECRET_<NAME> variables.
 * Contracts name a secret; only the wrapper ever holds its value.
 */
/** A stored secret found in a text: where, which, and in which form. */
export interface SecretMatch {
  name: string;
  form: SecretForm;
}

export interface SecretSpan extends SecretMatch {
  start: number;
  end: number;
}

/** `[secret:name]`, with the form when it is an encoding (`[secret:name:base64]`). */
export function placeholder(match: SecretMatch): string {
  const { family } = match.form;
  return family === 'raw' || family === 'json'
    ? `[secret:${match.name}]`
    : `[secret:${match.name}:${family}]`;
}

/** What the run log needs of the secret store. */
export interface Scrubber {
  scrub(text: string): string;
  scrubbedJson(value: unknown, indent?: number): string;
}

/** The form of a value, or none when the value has no such form (URL-encoding a lone surrogate throws). */
function encodedOrNone(form: SecretForm, value: string): string | undefined {
  try {
    return form.encode(value);
  } catch {
    return undefined;
  }
}

export class SecretStore implements Scrubber {
  readonly #file: string;
  readonly #values = new Map<string, string>();
  /** Every text the pattern looks for, and which secret in which form it is. */
  readonly #forms = new Map<string, SecretMatch>();
  /** Values scrubbed like secrets but never handed out by name (a model key from the environment). */
  readonly #scrubbedOnly = new Map<string, string>();
  #pattern: RegExp | undefined;
  /** Length of the shortest form the pattern looks for: shorter text cannot hold a secret. */
  #shortest = 0;

  constructor(home: string, env: Record<string, string | undefined> = {}) {
    this.#file = join(home, 'secrets.json');
    if (existsSync(this.#file)) {
      const stored = JSON.parse(readFileSync(this.#file, 'utf8')) as Record<string, string>;
      for (const [name, value] of Object.entries(stored)) this.#values.set(normalise(name), value);
    }
    for (const [key, value] of Object.entries(env)) {
      if (key.startsWith(ENV_PREFIX) && value)
        this.#values.set(normalise(key.slice(ENV_PREFIX.length)), value);
    }
  }

  has(name: string): boolean {
    return this.#values.has(normalise(name));
  }

  get(name: string): string {
    const value = this.#values.get(normalise(name));
    if (value === undefined) {
      throw new LiftError('AUTH_REQUIRED', `The secret '${normalise(name)}' is not stored.`, {
        hint: `A person must store it: lift secrets set ${normalise(name)} (or set ${ENV_PREFIX}${name.toUpperCase()}). The model cannot supply credentials.`,
        outcome: 'not_started',
      });
    }
    return value;
  }

  names(): string[] {
    return [...this.#values.keys()].sort();
  }

  /** Stores a secret in the file (never in the environment) and keeps the file private. */
  set(name: string, value: string): void {
    if (!NAME.test(normalise(name))) throw new Error(`Secret names are snake_case: '${name}'.`);
    this.#values.set(normalise(name), value);
    this.#pattern = undefined;
    const stored: Record<string, string> = existsSync(this.#file)
      ? (JSON.parse(readFileSync(this.#file, 'utf8')) as Record<string, string>)
      : {};
    stored[normalise(name)] = value;
    mkdirSync(dirname(this.#file), { recursive: true, mode: PRIVATE_DIR_MODE });
    writeFileSync(this.#file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    chmodSync(this.#file, 0o600);
  }

  /** Adds a value known only at run time (a session token) so that it is scrubbed too. */
  remember(name: string, value: string): void {
    this.#values.set(normalise(name), value);
    this.#pattern = undefined;
  }

  /** Scrubs a value from all output, without making it a secret that a tool can ask for. */
  scrubOnly(label: string, value: string): void {
    this.#scrubbedOnly.set(label, value);
    this.#pattern = undefined;
  }

  /** Whether any value is long enough to be scrubbed; without one, scrubbing changes nothing. */
  get active(): boolean {
    return this.#buildPattern() !== undefined;
  }

  /** Whether the text holds a known secret value, in any of its forms (secret-forms.ts). */
  foundIn(text: string): boolean {
    const pattern = this.#buildPattern();
    if (!pattern || text.length < this.#shortest) return false;
    pattern.lastIndex = 0;
    return pattern.test(text);
  }

  /** Where the text holds known secret values, in order, each with its name and form. */
  find(text: string): SecretSpan[] {
    const pattern = this.#buildPattern();
    if (!pattern || !this.foundIn(text)) return [];
    const spans: SecretSpan[] = [];
    // matchAll starts where the last test stopped.
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      const known = this.#forms.get(match[0]);
      if (known) spans.push({ ...known, start: match.index, end: match.index + match[0].length });
    }
    return spans;
  }

  /**
   * A JSON-like value with every known secret replaced in its strings, keys and numbers (a
   * number becomes the placeholder string). The value itself, untouched, when it holds none.
   */
  scrubValue<T>(value: T): T {
    return this.active ? (this.#scrubValue(value) as T) : value;
  }

  #scrubValue(value: unknown): unknown {
    if (typeof value === 'string') return this.foundIn(value) ? this.scrub(value) : value;
    if (typeof value === 'number') {
      const digits = String(value);
      return this.foundIn(digits) ? this.scrub(digits) : value;
    }
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let index = 0; index < value.length; index++) {
        const clean = this.#scrubValue(value[index]);
        if (clean === value[index]) continue;
        copy ??= [...value];
        copy[index] = clean;
      }
      return copy ?? value;
    }
    const record = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const clean = this.#scrubValue(record[key]);
      const cleanKey = this.foundIn(key) ? this.scrub(key) : key;
      if (clean === record[key] && cleanKey === key) continue;
      copy ??= { ...record };
      if (cleanKey !== key) delete copy[key];
      copy[cleanKey] = clean;
    }
    return copy ?? value;
  }

  /**
   * A value as JSON text with every known secret replaced. Replacing in the text would put
   * an unquoted placeholder where a secret sat in a number, so such a value is scrubbed
   * before it is serialised.
   */
  scrubbedJson(value: unknown, indent?: number): string {
    const json = JSON.stringify(value, null, indent);
    return this.foundIn(json) ? JSON.stringify(this.#scrubValue(value), null, indent) : json;
  }

  /** Replaces every known secret value, in any of its forms, with its placeholder. */
  scrub(text: string): string {
    const pattern = this.#buildPattern();
    // Most text holds no secret: looking first spares building a replacer for it.
    if (!pattern || !this.foundIn(text)) return text;
    return text.replace(pattern, (match) => {
      const known = this.#forms.get(match);
      return known ? placeholder(known) : '[secret:redacted]';
    });
  }

  #buildPattern(): RegExp | undefined {
    if (this.#pattern) return this.#pattern;
    this.#forms.clear();
    for (const [name, value] of [...this.#values, ...this.#scrubbedOnly]) {
      // Very short values would scrub ordinary text; a secret that short is not a secret.
      if (value.length < 4) continue;
      for (const form of SECRET_FORMS) {
        const text = encodedOrNone(form, value);
        if (text !== undefined && text.length >= form.minLength && !this.#forms.has(text))
          this.#forms.set(text, { name, form });
      }
    }
    if (this.#forms.size === 0) return undefined;
    const texts = [...this.#forms.keys()];
    this.#shortest = Math.min(...texts.map((text) => text.length));
    this.#pattern = literalPattern(texts);
    return this.#pattern;
  }
}
