import { isAbsolute, relative } from 'node:path';

/** Files Lift creates are readable by their owner only; folders likewise. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Where a path a tool was given may lead. Roots, in order of precedence: the operator's
 * `settings.<family>.roots` in lift.config, else `roots` (what the tool was built with), else the
 * working folder. The tool's `own` folders and Lift's output folder are allowed besides them;
 * Lift's home (secrets, database, approvals, run logs) never is.
 */
export interface PathScope {
  /** The tool family whose configured roots apply: office, git, payroll, hledger, inventory... */
  family: string;
  /** What the path is, for messages: 'path', 'repo_path', 'the journal'. */
  what: string;
  /** Roots the tool was built with (a factory setting); an empty list means only its own folders. */
  roots?: readonly string[] | undefined;
  /** The tool's own folders (its program's data folder), allowed besides the roots. */
  own?: readonly string[] | undefined;
}

/** Whether `path` is `folder` or lies inside it (both absolute and normalised). */
export function isWithin(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (rest !== '..' && !rest.startsWith('../') && !isAbsolute(rest));
}
