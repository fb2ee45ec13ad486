/**
 * A template value: bound inputs among literal text. The model may name an input as
 * `{{title}}`, as the capability stores it (`{{input.title}}`), or as observe shows a bound
 * value (`⟦input:title⟧`); the capability keeps one form, `{{input.title}}`.
 */
const REFERENCE =
  /\{\{\s*(input\.)?([A-Za-z][A-Za-z0-9_]{0,63})\s*\}\}|⟦input:([A-Za-z][A-Za-z0-9_]{0,63})⟧/g;

export type TemplatePart = { text: string } | { input: string };

/**
 * The template's parts, or the first input it names explicitly that is not bound. `{{NAME}}`
 * is an input only when NAME is bound: otherwise it is literal text, as a wiki's own
 * `{{Stub}}` must be.
 */
export function templateParts(
  template: string,
  isBound: (name: string) => boolean,
): { parts: TemplatePart[] } | { unknown: string } {
  const parts: TemplatePart[] = [];
  let literal = '';
  let from = 0;
  for (const match of template.matchAll(REFERENCE)) {
    const name = (match[2] ?? match[3]) as string;
    const explicit = match[1] !== undefined || match[3] !== undefined;
    literal += template.slice(from, match.index);
    from = match.index + match[0].length;
    if (!isBound(name)) {
      if (explicit) return { unknown: name };
      literal += match[0];
      continue;
    }
    if (literal) parts.push({ text: literal });
    literal = '';
    parts.push({ input: name });
  }
  literal += template.slice(from);
  if (literal) parts.push({ text: literal });
  return { parts };
}

/** The template as a capability stores it: `{{input.NAME}}` for each input. */
export function storedTemplate(parts: readonly TemplatePart[]): string {
  return parts.map((part) => ('input' in part ? `{{input.${part.input}}}` : part.text)).join('');
}

/** The template's text, each input replaced by what `inputValue` gives for it. */
export function joinTemplate(parts: readonly TemplatePart[], inputValue: (input: string) => string): string {
  return parts.map((part) => ('input' in part ? inputValue(part.input) : part.text)).join('');
}

/** The template with every accepted reference taken out: what is left must hold no placeholder. */
export function withoutReferences(template: string): string {
  return template.replace(REFERENCE, '');
}
