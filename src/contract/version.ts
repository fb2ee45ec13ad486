import { readFileSync } from 'node:fs';

/**
 * Lift's version, read once from package.json: the one place it is written. Both the
 * sources (src/contract/) and the build (dist/contract/) sit two folders below it.
 */
export const LIFT_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
