import type { JsonSchema } from '../contract/json-schema.js';

/**
 * What the wrapper contract says is never an input (seed 000: "never an input: a credential;
 * on rungs 1 to 4, also a command line, a selector, a coordinate"), plus code to evaluate,
 * which is a command line by another name. Each kind is recognised by the argument's name or
 * by what its description says it holds.
 */
export type NeverInputKind = 'code' | 'shell-command' | 'selector' | 'coordinates';

interface Pattern {
  kind: NeverInputKind;
  names: RegExp;
  descriptions: RegExp;
  /** Only arguments of these types (coordinates are numbers; the rest are text). */
  types: ReadonlySet<string>;
}

const TEXT = new Set(['string']);
const NUMBERS = new Set(['number', 'integer']);

const PATTERNS: readonly Pattern[] = [
  {
    kind: 'code',
    names:
      /^(code|source|source_code|function|fn|func|script|javascript|js|python|eval|expression|expr|lambda|snippet|sql|query_sql|sql_query)$/i,
    descriptions:
      /\b(javascript|typescript|python|sql statement|code to (run|execute|evaluate)|(code|function|script|expression) (to|that will be|that is) (run|execute|evaluate)|playwright code|evaluate[ds]? (a |the )?(js|javascript|expression|code|function))\b|=>\s*\{/i,
    types: TEXT,
  },
  {
    kind: 'shell-command',
    names: /^(command|cmd|command_line|commandline|shell|shell_command|bash|sh|argv|cli_args)$/i,
    descriptions:
      /\b(shell command|bash command|command line|command-line|terminal command|run in (a |the )?shell)\b/i,
    types: TEXT,
  },
  {
    kind: 'selector',
    names: /(^|_)(selector|xpath|css|locator)$/i,
    descriptions: /\b(css selector|xpath|element selector|unique element selector|selector)\b/i,
    types: TEXT,
  },
  {
    kind: 'coordinates',
    names: /^((start|end|from|to|page|screen|client|offset)?_?[xy]|coords?|coordinates?|point)$/i,
    descriptions: /\b(coordinates?|pixel position|x position|y position)\b/i,
    types: NUMBERS,
  },
];

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  return (schema.anyOf ?? schema.oneOf ?? []).flatMap(typesOf);
}

/** A fixed list of values is a choice, not a program or a place on the screen. */
function isChoice(schema: JsonSchema): boolean {
  return schema.enum !== undefined || schema.const !== undefined;
}

/** What an argument carries that must never come from the model, or undefined. */
export function neverInputKind(name: string, schema: JsonSchema): NeverInputKind | undefined {
  if (isChoice(schema)) return undefined;
  const types = typesOf(schema);
  const description = schema.description ?? '';
  for (const pattern of PATTERNS) {
    if (!types.some((type) => pattern.types.has(type))) continue;
    if (pattern.names.test(name) || pattern.descriptions.test(description)) return pattern.kind;
  }
  return undefined;
}

/** Selectors and coordinates are the element and screen actions of rungs 5 and 6; code and commands are never inputs. */
export function allowedOnRung(kind: NeverInputKind, rung: string | undefined): boolean {
  return (kind === 'selector' || kind === 'coordinates') && (rung === 'ui' || rung === 'screen');
}

export const NEVER_INPUT_RULES: Record<NeverInputKind, { rule: string; what: string; fix: string }> = {
  code: {
    rule: 'code-input',
    what: 'carries code to evaluate: the model writes a program and the tool runs it',
    fix: 'Never an input (000: rungs 1 to 4 fix every step in code). Write the code in the wrapper and expose the task it does as its own tool with typed, bounded arguments.',
  },
  'shell-command': {
    rule: 'shell-command-input',
    what: 'carries a shell command: the model holds the whole command line',
    fix: 'Never an input (000: the command line is fixed in code). Run one program with fixed arguments per task-shaped tool; take only typed values from the model.',
  },
  selector: {
    rule: 'selector-input',
    what: 'carries a selector: the model chooses the element, so the tool breaks when the page changes',
    fix: 'Never an input on rungs 1 to 4: record the steps and their targets in the wrapper (a compiled UI script) and expose the task; on rungs 5 and 6 declare the tool a UI tool with an allow-list policy.',
  },
  coordinates: {
    rule: 'coordinates-input',
    what: 'carries screen coordinates: the model aims at pixels instead of naming a task',
    fix: 'Never an input on rungs 1 to 4: name the control by role and label in the wrapper and expose the task; coordinates belong only to a screen rung (6) tool under a person-held gate.',
  },
};
