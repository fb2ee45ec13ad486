import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { LiftError } from '../../contract/errors.js';

/**
 * A browser's saved sign-in as Playwright writes it (`context.storageState({ path })`, or
 * `playwright-cli state-save`): cookies, and the local storage of each origin.
 */
const StorageStateSchema = z.object({
  cookies: z
    .array(
      z.object({
        name: z.string(),
        value: z.string(),
        domain: z.string().min(1),
        path: z.string().min(1),
        expires: z.number(),
        httpOnly: z.boolean(),
        secure: z.boolean(),
        sameSite: z.enum(['Strict', 'Lax', 'None']),
      }),
    )
    .max(10_000),
  origins: z
    .array(
      z.object({
        origin: z.string().min(1),
        localStorage: z.array(z.object({ name: z.string(), value: z.string() })),
      }),
    )
    .max(1_000)
    .default([]),
});
export type StorageState = z.infer<typeof StorageStateSchema>;

const EXAMPLE = {
  cookies: [
    {
      name: 'session',
      value: '…',
      domain: '127.0.0.1',
      path: '/',
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: 'Lax',
    },
  ],
  origins: [{ origin: 'http://127.0.0.1:8080', localStorage: [{ name: 'token', value: '…' }] }],
};

function invalid(file: string, why: string): LiftError {
  return new LiftError('BAD_INPUT', `The storage state ${file} ${why}.`, {
    hint: "Save it from the browser that is signed in (Playwright's context.storageState({ path })), then pass that file.",
    details: { example: EXAMPLE },
  });
}

/**
 * Reads a saved storage state. Its values are sign-ins: no error repeats any part of the
 * file, only where in it the problem is (JSON.parse's message quotes the text, so it is
 * never passed on).
 */
export function loadStorageState(file: string): StorageState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw invalid(file, 'cannot be read');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(file, 'is not JSON');
  }
  const parsed = StorageStateSchema.safeParse(value);
  if (!parsed.success) {
    const where = parsed.error.issues
      .slice(0, 3)
      .map((issue) => (issue.path.length ? issue.path.join('.') : '(the whole file)'))
      .join(', ');
    throw invalid(file, `is not a saved storage state (wrong or missing: ${where})`);
  }
  return parsed.data;
}
