import { resolve } from 'node:path';
import { LiftError } from '../contract/errors.js';
import { loadSignInRecipe, passwordFormSignIn, type SignInRecipe, secretsOf } from '../rungs/ui/sign-in.js';
import type { SecretStore } from '../store/secrets.js';
import { UsageError } from './args.js';

/** The sign-in flags of every command that opens an application's pages. */
export const SIGN_IN_OPTIONS = {
  user: { type: 'string', value: 'USER', description: 'sign in as this user first (with --secret)' },
  secret: { type: 'string', value: 'NAME', description: "the secret holding that user's password" },
  'sign-in': {
    type: 'string',
    value: 'FILE',
    description:
      'sign in by this recipe (JSON or YAML): which field gets which value, the button, how success shows',
  },
} as const;

/**
 * The sign-in the flags ask for, as a recipe: `--sign-in FILE` read whole, or the short form
 * `--user U --secret NAME`. Every secret it reads is looked up now, so a missing one is an
 * error before a browser starts.
 */
export function recipeFromFlags(
  values: { user?: string | undefined; secret?: string | undefined; 'sign-in'?: string | undefined },
  cwd: string,
  secrets?: SecretStore,
): SignInRecipe | undefined {
  const file = values['sign-in'];
  if (file && (values.user || values.secret))
    throw new UsageError('Give --sign-in FILE or --user USER --secret NAME, not both.');
  if (!file && Boolean(values.user) !== Boolean(values.secret))
    throw new UsageError(
      '--user and --secret go together: the user name and the secret holding its password.',
    );
  const recipe = file
    ? loadSignInRecipe(resolve(cwd, file))
    : values.user && values.secret
      ? passwordFormSignIn(values.user, { secret: values.secret })
      : undefined;
  if (recipe && secrets) {
    const missing = secretsOf(recipe).filter((name) => !secrets.has(name));
    if (missing.length > 0)
      throw new LiftError(
        'NOT_CONFIGURED',
        `The sign-in reads the secret '${missing[0]}', which is not stored.`,
        {
          hint: `lift secrets set ${missing[0]} (the value on stdin), or LIFT_SECRET_${missing[0]!.toUpperCase()}.`,
        },
      );
  }
  return recipe;
}
