import { resolve } from 'node:path';
import { LiftError } from '../contract/errors.js';
import type { BrowserChoice } from '../discover/session-page.js';
import { checkEndpoint } from '../rungs/ui/attach.js';
import { loadSignInRecipe, passwordFormSignIn, type SignInRecipe, secretsOf } from '../rungs/ui/sign-in.js';
import { loadStorageState } from '../rungs/ui/storage-state.js';
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

/** The flags that choose the browser an exploration drives: a person's, or Lift's with a saved sign-in. */
export const BROWSER_OPTIONS = {
  'browser-url': {
    type: 'string',
    value: 'URL',
    description:
      'explore in a browser you started and signed in to (chromium --remote-debugging-port=9222): http://127.0.0.1:9222; found again after the browser restarts',
  },
  'cdp-endpoint': {
    type: 'string',
    value: 'URL',
    description: "the same by the browser's ws:// (or http://) debugging address",
  },
  'storage-state': {
    type: 'string',
    value: 'FILE',
    description:
      "load a saved sign-in (Playwright's storage state: cookies, local storage) into Lift's profile",
  },
} as const;

/**
 * The browser the flags choose, checked now (the address's form, the file's contents), before
 * any browser starts. An attached browser's cookies are the sign-in, so a saved one is refused
 * beside it.
 */
export function browserFrom(
  values: {
    'browser-url'?: string | undefined;
    'cdp-endpoint'?: string | undefined;
    'storage-state'?: string | undefined;
  },
  cwd: string,
): BrowserChoice {
  const { 'browser-url': browserUrl, 'cdp-endpoint': cdpEndpoint, 'storage-state': stateFile } = values;
  if (browserUrl && cdpEndpoint)
    throw new UsageError('Give --browser-url or --cdp-endpoint, not both: they name the same browser.');
  const endpoint = browserUrl ?? cdpEndpoint;
  if (endpoint && stateFile)
    throw new UsageError(
      "--storage-state loads a sign-in into Lift's own browser; with --browser-url the browser's own sign-in is used. Give one.",
    );
  if (browserUrl && !/^https?:/i.test(browserUrl))
    throw new UsageError(
      `--browser-url takes the browser's http address (http://127.0.0.1:9222), not '${browserUrl}'; a ws:// address goes to --cdp-endpoint.`,
    );
  if (endpoint) return { endpoint: checkEndpoint(endpoint) };
  if (stateFile) {
    const file = resolve(cwd, stateFile);
    loadStorageState(file);
    return { storageState: file };
  }
  return {};
}

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
