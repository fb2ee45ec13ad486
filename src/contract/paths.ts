import { isAbsolute, relative } from 'node:path';

/** Files Lift creates are readable by their owner only; folders likewise. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Where a path a tool was given may lead. Roots, in order of precedence: the operator's
 * `settings.<family>.roots` in lift.config, else `roots` (what the tool was built with), else the
 * working folder. The tool's `own` folders, Lift's output folder and the family's data folder
 * (`data/<family>/` of the home) are allowed besides them; the rest of Lift's home (secrets,
 * database, approvals, run logs) never is.
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
  /**
   * Data the tool keeps for itself (the inventory's data file by default): relative paths and
   * roots resolve in the family's data folder of Lift's home (`data/<family>/`), not the working
   * folder, so every working folder with the same home sees the same data.
   */
  data?: boolean | undefined;
}

/** Whether `path` is `folder` or lies inside it (both absolute and normalised). */
export function isWithin(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (rest !== '..' && !rest.startsWith('../') && !isAbsolute(rest));
}
