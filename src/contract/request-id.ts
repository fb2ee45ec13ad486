import { z } from 'zod';

/**
 * The one rule for a `request_id`, the key that makes a repeated write the same write:
 * 4 to 100 letters, digits, `.`, `_`, `:` or `-`, starting with a letter or digit. Lift
 * puts the id where programs can read it back (a journal tag, a file name, a command-line
 * argument, an HTTP header), so it holds no spaces, quotes, slashes or leading dash.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{3,99}$/;

export const RequestIdSchema = z
  .string()
  .regex(REQUEST_ID_PATTERN, '4 to 100 letters, digits, . _ : or -, starting with a letter or digit')
  .describe('Makes a repeated call the same call: the first result comes back instead of a second write.');
