import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE } from '../contract/paths.js';

/** Lift's state folder cannot be created or written; the message says to set LIFT_HOME. */
export class HomeNotWritable extends Error {
  override readonly name = 'HomeNotWritable';
  constructor(
    readonly home: string,
    readonly code: string,
  ) {
    super(
      `Lift cannot write its state folder ${home} (${code}). Set LIFT_HOME to a folder you can write, e.g. export LIFT_HOME=$HOME/.lift`,
    );
  }
}

/**
 * Creates `home` one level at a time and checks that it is writable. Not `mkdirSync(recursive)`:
 * on Node 20 that loops forever under /proc (a working folder of /proc made lift hang).
 */
export function prepareHome(home: string): void {
  const missing: string[] = [];
  let folder = home;
  while (!existsSync(folder)) {
    missing.unshift(folder);
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  try {
    for (const level of missing) makeFolder(level);
    accessSync(home, constants.W_OK);
  } catch (error) {
    throw new HomeNotWritable(home, (error as NodeJS.ErrnoException).code ?? 'error');
  }
}

/** Another process opening the same new home may create a level first: that is no failure. */
function makeFolder(folder: string): void {
  try {
    mkdirSync(folder, { mode: PRIVATE_DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(folder).isDirectory()) throw error;
  }
}
