import type { z } from 'zod';
import type { SignInRecipeInput } from './sign-in-recipe.js';

/** Where a recipe is documented; every recipe error points there. */
export const SIGN_IN_RECIPE_DOCS =
  'docs/sign-in-recipe.md in Lift’s source (JSON Schema: docs/sign-in-recipe.schema.json)';

/** A recipe of each shape, as the docs and the JSON Schema show them (test/rungs/ui checks they parse). */
export const SIGN_IN_RECIPE_EXAMPLES = {
  /** One password form: Lift finds its user and password boxes itself. */
  userAndPassword: {
    fields: [
      { field: 'user', value: { literal: 'admin' } },
      { field: 'password', value: { secret: 'wiki_password' } },
    ],
  },
  /** A database admin's form: server, user, password and database, each named by its label. */
  hostUserPasswordDatabase: {
    fields: [
      { target: { locator: { by: 'field', label: 'Server' } }, value: { literal: '127.0.0.1' } },
      { target: { locator: { by: 'field', label: 'Username' } }, value: { literal: 'shopadmin' } },
      { target: { locator: { by: 'field', label: 'Password' } }, value: { secret: 'db_password' } },
      { target: { locator: { by: 'field', label: 'Database' } }, value: { input: 'database' } },
    ],
    submit: { click: { locator: { by: 'role', role: 'button', name: 'Login' } } },
    success: { visible: { locator: { by: 'role', role: 'link', name: 'Logout' } } },
  },
  /** A select chosen by its option's label before the boxes are filled. */
  select: {
    fields: [
      { target: { locator: { by: 'field', label: 'System' } }, value: { literal: 'MySQL' }, op: 'select' },
      { target: { locator: { by: 'field', label: 'Username' } }, value: { literal: 'root' } },
      { target: { locator: { by: 'field', label: 'Password' } }, value: { secret: 'db_password' } },
    ],
    submit: { click: { locator: { by: 'role', role: 'button', name: 'Login' } } },
  },
  /** A site whose pages are public: the form is at `page`, reached at `open` before the start page. */
  publicSite: {
    fields: [
      {
        target: { locator: { by: 'field', label: 'Username or Email Address' } },
        value: { literal: 'admin' },
      },
      { target: { locator: { by: 'field', label: 'Password' } }, value: { secret: 'wordpress_password' } },
    ],
    submit: { click: { locator: { by: 'role', role: 'button', name: 'Log In' } } },
    success: { path: '/wp-admin/' },
    page: '/wp-login.php',
    open: '/wp-login.php',
  },
} as const satisfies Record<string, SignInRecipeInput>;

/** The shapes a recipe may take, with an example: every recipe error ends with these lines. */
export const SIGN_IN_RECIPE_SHAPES = [
  'A sign-in recipe (JSON or YAML) is {"fields": [FIELD, ...], "submit": SUBMIT, "success": SUCCESS, "page": "/path", "open": "/path"}; only "fields" is required.',
  '  FIELD   {"field": "user" | "password", "value": VALUE}  (Lift finds the box of a one-password form itself)',
  '          or {"target": TARGET, "value": VALUE, "op": "fill" | "select"}  (a box or select by its label; op is fill unless said)',
  '  VALUE   {"literal": "text"} | {"secret": "NAME"} (lift secrets set NAME) | {"input": "NAME"} (a bound --input)',
  '  TARGET  {"locator": {"by": "field", "label": "Username"}} (the text a person reads before the box; a trailing colon is optional),',
  '          {"locator": {"by": "role", "role": "button", "name": "Log in"}}, {"locator": {"by": "label", "label": "..."}} or {"locator": {"by": "text", "text": "..."}}',
  '  SUBMIT  "press_enter" (the default: Enter in the last box) | {"click": TARGET}',
  '  SUCCESS "form_gone" (the default) | {"visible": TARGET} | {"path": "/prefix"}',
  '  page    the path the form lives at (a password box on any other page is no sign-in); open: where to sign in before a public start page',
  `Example: ${JSON.stringify(SIGN_IN_RECIPE_EXAMPLES.hostUserPasswordDatabase)}`,
  `More examples, one per shape: ${SIGN_IN_RECIPE_DOCS}.`,
].join('\n');

type Slot =
  | 'RECIPE'
  | 'FIELDS'
  | 'FIELD'
  | 'VALUE'
  | 'TARGET'
  | 'OP'
  | 'SUBMIT'
  | 'SUCCESS'
  | 'PATH'
  | 'VERSION';

const SLOTS: Record<Slot, string> = {
  RECIPE:
    'a recipe has "fields" and may have "submit", "success", "page", "open" and "version", nothing else',
  FIELDS: '"fields" is a list of 1 to 10 FIELDs',
  FIELD:
    'a FIELD is {"field": "user" | "password", "value": VALUE} or {"target": TARGET, "value": VALUE, "op": "fill" | "select"}',
  VALUE: 'a VALUE is {"literal": "text"}, {"secret": "NAME"} or {"input": "NAME"}',
  TARGET:
    'a TARGET is {"locator": {"by": "field", "label": "Username"}} or {"locator": {"by": "role", "role": "button", "name": "Log in"}}',
  OP: '"op" is "fill" (the default) or "select"',
  SUBMIT: '"submit" is "press_enter" or {"click": TARGET}',
  SUCCESS: '"success" is "form_gone", {"visible": TARGET} or {"path": "/prefix"}',
  PATH: '"page" and "open" are paths starting with "/"',
  VERSION: '"version" is 1',
};

/** Which part of a recipe a path into it names. */
function slotOf(path: readonly PropertyKey[]): Slot {
  const [top, second, third] = path;
  switch (top) {
    case 'fields':
      if (second === undefined) return 'FIELDS';
      if (third === 'value') return 'VALUE';
      if (third === 'target') return 'TARGET';
      if (third === 'op') return 'OP';
      return 'FIELD';
    case 'submit':
      return second === 'click' ? 'TARGET' : 'SUBMIT';
    case 'success':
      return second === 'visible' ? 'TARGET' : 'SUCCESS';
    case 'page':
    case 'open':
      return 'PATH';
    case 'version':
      return 'VERSION';
    default:
      return 'RECIPE';
  }
}

interface Leaf {
  path: PropertyKey[];
  message: string;
}

/**
 * The issues that say what is wrong, not that a union failed: of a union's branches, the one
 * with the fewest issues that reach deepest (a FIELD that has "target" is judged as a target
 * field, not as a user-or-password field that has a stray key).
 */
function leaves(issues: readonly z.core.$ZodIssue[], base: PropertyKey[]): Leaf[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path];
    if (issue.code !== 'invalid_union' || issue.errors.length === 0)
      return [{ path, message: issue.message }];
    const depth = (branch: readonly z.core.$ZodIssue[]) =>
      Math.max(...branch.map((each) => each.path.length));
    const best = [...issue.errors].sort((a, b) => a.length - b.length || depth(b) - depth(a))[0]!;
    return leaves(best, path);
  });
}

function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}${text ? '.' : ''}${String(key)}`),
    '',
  );
}

/** Each thing wrong with a recipe, where it is and what is allowed there; then every shape. */
export function explainRecipeIssues(error: z.ZodError): string {
  const seen = new Set<string>();
  const lines = leaves(error.issues, []).flatMap(({ path, message }) => {
    const what = message.replace(/^Invalid input: /, '');
    const line = `✖ ${path.length ? `at ${pathText(path)}: ` : ''}${what} — ${SLOTS[slotOf(path)]}.`;
    if (seen.has(line)) return [];
    seen.add(line);
    return [line];
  });
  return `${lines.join('\n')}\n\n${SIGN_IN_RECIPE_SHAPES}`;
}
