/**
 * Placeholders that cannot be mistaken for page text. The model sees these instead of bound
 * input values, values the tool must not show, and secrets; typing one back is refused.
 */
export const PLACEHOLDER = /⟦(?:input|hidden|secret|read)(?::[^⟧]{0,80})?⟧/;
/** Hand-typed look-alikes a model may produce from a placeholder it saw: [input:memberId], {{input:x}}. */
const LOOKALIKE = /(?:\[|\{\{|<)\s*(?:input|hidden|secret|read)\s*:[^\]}>]{1,80}(?:\]|\}\}|>)/i;

export interface RedactionRules {
  /** Values bound from the tool's inputs, by input name: shown as ⟦input:NAME⟧. */
  inputs?: Record<string, string>;
  /** Secret values (credentials, tokens): shown as ⟦secret⟧. */
  secrets?: string[];
  /** Column headers whose cells are never shown: shown as ⟦hidden:column⟧. */
  hiddenColumns?: string[];
}

export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '') || 'value'
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** At most this many characters, a value is everywhere on a page (a level, a time, a count). */
const SHORT_VALUE = 3;

/**
 * A bound input is replaced where it stands as a whole token (not inside a longer word, a
 * label or a URL segment: `user` stays in "Users" and `usermanager`, `admin` in "/wp-admin/"
 * and "admin.php"), so even a one-letter input can be bound and redacted without blanking
 * out the page. A hyphen, dot or at sign between letters joins one word, and a colon, comma
 * or slash between digits one number ("12:30", "1,3", "12/03/2024"); a slash elsewhere does
 * not: a whole URL segment (`/members/M-1002`) is a whole value.
 *
 * A short value (three characters or fewer) is only the bound value where it stands alone:
 * no word beside it across a space. "Heading 3", "3 items" and "Page 2 of 5" are the page's
 * own words and numbers; the whole text, a cell, "/orders/3/edit", "Re: 3" and "Howdy, al."
 * are the value, and so is one right after a reference sign ("Issue #3 was closed", "id=3"). The compiler's placeholders (parameteriseText) and screenshot
 * masks use this same pattern, so what the explorer saw redacted is what becomes a parameter.
 */
export function tokenPattern(value: string): string {
  const word = '[\\p{L}\\p{N}_]';
  const digit = '\\p{N}';
  const before = [word, `${word}[-.@]`, `${digit}[:,/]`];
  const after = [word, `[-.@]${word}`, `[:,/]${digit}`];
  const joined = `${escapeRegExp(value)}(?!${after.join('|')})`;
  if ([...value].length > SHORT_VALUE) return `(?<!${before.join('|')})${joined}`;
  // Right after a reference sign ("#3", "id=3") the value is meant, whatever follows it.
  const alone = `(?<!${[...before, `${word}\\s`].join('|')})${escapeRegExp(value)}(?!${[...after, `\\s${word}`].join('|')})`;
  return `(?:(?<=[#=])${joined}|${alone})`;
}

export class Redactor {
  readonly #replacements: Array<{ value: string; placeholder: string; token?: true }> = [];
  readonly #hiddenColumns: Map<string, string>;
  #pattern: RegExp | undefined;
  #inputPattern: RegExp | undefined;
  #identifierPattern: RegExp | undefined;

  constructor(rules: RedactionRules = {}) {
    for (const secret of rules.secrets ?? []) {
      if (secret.length > 0) this.#replacements.push({ value: secret, placeholder: '⟦secret⟧' });
    }
    for (const [name, value] of Object.entries(rules.inputs ?? {})) {
      if (value.length > 0) this.#replacements.push({ value, placeholder: `⟦input:${name}⟧`, token: true });
    }
    this.#hiddenColumns = new Map(
      (rules.hiddenColumns ?? []).map((column) => [column.trim().toLowerCase(), slug(column)]),
    );
    this.#rebuild();
  }

  /** Adds a secret learned at run time (a value typed at sign-in). */
  addSecret(value: string): void {
    if (value.length === 0 || this.#replacements.some((entry) => entry.value === value)) return;
    this.#replacements.push({ value, placeholder: '⟦secret⟧' });
    this.#rebuild();
  }

  inputValue(name: string): string | undefined {
    return this.#replacements.find((entry) => entry.placeholder === `⟦input:${name}⟧`)?.value;
  }

  text(value: string): string {
    if (value.length === 0) return value;
    let text = this.#pattern ? value.replace(this.#pattern, '⟦secret⟧') : value;
    for (const pattern of [this.#identifierPattern, this.#inputPattern]) {
      if (!pattern) continue;
      // Placeholders already in the text stay whole (an input named like another's value).
      text = text
        .split(/(⟦[^⟧]*⟧)/)
        .map((part, index) =>
          index % 2 === 1 ? part : part.replace(pattern, (match) => this.#placeholderOf(match)),
        )
        .join('');
    }
    return text;
  }

  #placeholderOf(match: string): string {
    const found = this.#replacements.find(
      (entry) => entry.token && entry.value.toLowerCase() === match.toLowerCase(),
    );
    return found?.placeholder ?? '⟦secret⟧';
  }

  /** A table cell: hidden columns blank the whole value, other cells get text redaction. */
  cell(column: string, value: string): string {
    const hidden = this.#hiddenColumns.get(column.trim().toLowerCase());
    if (hidden && value.trim().length > 0) return `⟦hidden:${hidden}⟧`;
    return this.text(value);
  }

  isHiddenColumn(column: string): boolean {
    return this.#hiddenColumns.has(column.trim().toLowerCase());
  }

  #rebuild(): void {
    const longestFirst = [...this.#replacements].sort((a, b) => b.value.length - a.value.length);
    // Secrets go wherever they appear, in any case, even inside a word: a leak is never worth a clean label.
    const secrets = longestFirst.filter((entry) => !entry.token);
    this.#pattern = secrets.length
      ? new RegExp(secrets.map((entry) => escapeRegExp(entry.value)).join('|'), 'gi')
      : undefined;
    // Inputs as whole tokens. A word (letters only) as written, since it collides with the UI's
    // own words (`user` bound leaves "User Manager" and "Users" alone); an identifier with
    // digits or signs in any case, as pages print them (M-1001 shown as m-1001).
    const inputs = longestFirst.filter((entry) => entry.token);
    const words = inputs.filter((entry) => /^\p{L}+$/u.test(entry.value));
    const identifiers = inputs.filter((entry) => !/^\p{L}+$/u.test(entry.value));
    const join = (entries: typeof inputs) => entries.map((entry) => tokenPattern(entry.value)).join('|');
    this.#inputPattern = words.length ? new RegExp(join(words), 'gu') : undefined;
    this.#identifierPattern = identifiers.length ? new RegExp(join(identifiers), 'giu') : undefined;
  }
}

/** Finds a placeholder (or a hand-typed look-alike of one) in text the model sent back. */
export function findPlaceholder(text: string): string | undefined {
  return PLACEHOLDER.exec(text)?.[0] ?? LOOKALIKE.exec(text)?.[0];
}

/** The input name inside ⟦input:NAME⟧ or a look-alike, when there is one. */
export function placeholderInputName(placeholder: string): string | undefined {
  return /input\s*:\s*([A-Za-z0-9_]+)/.exec(placeholder)?.[1];
}
