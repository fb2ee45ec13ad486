import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseYaml } from '../../config/yaml.js';
import { LiftError } from '../../contract/errors.js';
import { TargetSchema } from './locator-format.js';
import {
  explainRecipeIssues,
  SIGN_IN_RECIPE_DOCS,
  SIGN_IN_RECIPE_EXAMPLES,
  SIGN_IN_RECIPE_SHAPES,
} from './sign-in-recipe-help.js';

const Name = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'letters, digits and _, starting with a letter');

/** Where a value typed while signing in comes from. Nothing typed at sign-in comes from a model. */
export const SignInValueSchema = z.union([
  /** Typed as written (a user name, a server's name). */
  z.strictObject({ literal: z.string().max(500) }).describe('Typed as written (a user name, a server name).'),
  /** Read from the secret store by name at the moment it is typed. */
  z
    .strictObject({ secret: Name })
    .describe('Read from the secret store by name (lift secrets set NAME) at the moment it is typed.'),
  /** A value bound to the session's inputs (a tenant, a branch). */
  z.strictObject({ input: Name }).describe('A value bound to the session’s inputs (--input NAME=VALUE).'),
]);
export type SignInValue = z.infer<typeof SignInValueSchema>;

/** The fields of a password form Lift finds itself (the short form `--user/--secret`). */
export type SignInField = 'user' | 'password';

/**
 * One field of the sign-in form: one Lift finds itself (`field`: the password form's user
 * or password box), or one the recipe names by a semantic target (a label, a role and
 * name), typed into or, for `op: "select"`, chosen in a select by its option's label.
 */
export const SignInFieldSchema = z.union([
  z
    .strictObject({ field: z.enum(['user', 'password']), value: SignInValueSchema })
    .describe('A box Lift finds itself in a form with one password box: its user box or its password box.'),
  z
    .strictObject({
      target: TargetSchema.describe(
        'The box or select, e.g. {"locator": {"by": "field", "label": "Username"}} (the text a person reads before it).',
      ),
      value: SignInValueSchema,
      op: z.enum(['fill', 'select']).default('fill'),
    })
    .describe('A box or select named by a target; op "select" chooses the option whose label is the value.'),
]);
export type SignInFieldEntry = z.infer<typeof SignInFieldSchema>;

/**
 * How Lift signs a session in, as data: which field gets which value, how the form is
 * sent, how success shows, and where the form lives. The UI tools, discovery and replay
 * all sign in through one of these; a registered capability keeps the whole recipe.
 */
export const SignInRecipeSchema = z.strictObject({
  version: z.literal(1).default(1),
  fields: z.array(SignInFieldSchema).min(1).max(10).describe('The boxes to fill, in order.'),
  /** Enter in the last field filled (implicit submission), or a click on the form's button. */
  submit: z
    .union([z.literal('press_enter'), z.strictObject({ click: TargetSchema })])
    .default('press_enter')
    .describe('"press_enter" (Enter in the last box filled) or {"click": TARGET} (the form’s button).'),
  /**
   * How success shows once the page settled: the form is gone (`form_gone`), an element only
   * a signed-in page has is visible, or the page's path starts with this one.
   */
  success: z
    .union([
      z.literal('form_gone'),
      z.strictObject({ visible: TargetSchema }),
      z.strictObject({ path: z.string().min(1).max(500).startsWith('/') }),
    ])
    .default('form_gone')
    .describe(
      'How success shows once the page settled: "form_gone", {"visible": TARGET} (something only a signed-in page has) or {"path": "/prefix"}.',
    ),
  /**
   * The path the sign-in form lives at (`/wp-login.php`, `/index.php/Special:UserLogin`):
   * a password field on any other page (an "Add user" form) is not a sign-in.
   */
  page: z
    .string()
    .min(1)
    .max(500)
    .startsWith('/')
    .optional()
    .describe('The path the form lives at: a password box on any other page is no sign-in.'),
  /**
   * Where the form is reached (a "Log in" link's page): the session signs in there before
   * its start page, for applications that show their pages to anyone and ask no sign-in.
   */
  open: z
    .string()
    .min(1)
    .max(500)
    .startsWith('/')
    .optional()
    .describe('Where the form is reached: the session signs in there before its start page.'),
});
export type SignInRecipe = z.infer<typeof SignInRecipeSchema>;
export type SignInRecipeInput = z.input<typeof SignInRecipeSchema>;

/** The `--user USER --secret NAME` sign-in: the user name as typed, the password from the store. */
export function passwordFormSignIn(user: string, password: SignInValue): SignInRecipe {
  return {
    version: 1,
    fields: [
      { field: 'user', value: { literal: user } },
      { field: 'password', value: password },
    ],
    submit: 'press_enter',
    success: 'form_gone',
  };
}

/** A recipe checked; when it is not one, each thing wrong with it, what is allowed there, and every shape. */
export function parseSignInRecipe(value: unknown, source = 'The sign-in recipe'): SignInRecipe {
  const result = SignInRecipeSchema.safeParse(value);
  if (!result.success) {
    throw new LiftError('BAD_INPUT', `${source} is not valid:\n${explainRecipeIssues(result.error)}`, {
      hint: `Write it in one of the shapes above; the shortest is ${JSON.stringify({ ...SIGN_IN_RECIPE_EXAMPLES.userAndPassword, submit: 'press_enter' })}, and ${SIGN_IN_RECIPE_DOCS} has an example of each.`,
    });
  }
  return result.data;
}

/** Reads a recipe file (`--sign-in FILE`); `.json` is JSON, anything else YAML (which also reads JSON). */
export function loadSignInRecipe(file: string): SignInRecipe {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new LiftError('BAD_INPUT', `No sign-in recipe at ${file}.\n\n${SIGN_IN_RECIPE_SHAPES}`, {
      hint: 'Pass the path of a recipe file.',
    });
  }
  let parsed: unknown;
  try {
    parsed = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new LiftError(
      'BAD_INPUT',
      `${file} is not JSON or YAML: ${(error as Error).message}\n\n${SIGN_IN_RECIPE_SHAPES}`,
    );
  }
  return parseSignInRecipe(parsed, file);
}

/**
 * The recipe's JSON Schema (what a person or a model writes: defaults optional), with an
 * example of each shape; docs/sign-in-recipe.schema.json is this, and a test keeps them equal.
 */
export function signInRecipeJsonSchema(): Record<string, unknown> {
  const { $schema, ...schema } = z.toJSONSchema(SignInRecipeSchema, { io: 'input' }) as Record<
    string,
    unknown
  >;
  return {
    $schema,
    title: 'Lift sign-in recipe',
    description:
      'How Lift signs a session in (lift session start, lift discover and lift capabilities add take it as --sign-in FILE): which field of the sign-in form gets which value, how the form is sent, how success shows, and where the form lives. See docs/sign-in-recipe.md.',
    ...schema,
    examples: Object.values(SIGN_IN_RECIPE_EXAMPLES),
  };
}

/** The secret names a recipe reads (to mask their values before anything is typed). */
export function secretsOf(recipe: SignInRecipe): string[] {
  return recipe.fields.flatMap(({ value }) => ('secret' in value ? [value.secret] : []));
}

/** Values written into the recipe that go into the password field Lift finds: masked like secrets. */
export function literalPasswordsOf(recipe: SignInRecipe): string[] {
  return recipe.fields.flatMap((entry) =>
    'field' in entry && entry.field === 'password' && 'literal' in entry.value ? [entry.value.literal] : [],
  );
}
