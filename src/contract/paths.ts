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

/**
 * Where a URL a tool was given may lead: only origins the operator's policy allows for the
 * family (lift.config `settings.<family>.origins`), at most `maxBytes`, and never redirected to
 * another origin. A tool that takes no URL declares none, and a URL in a path field is refused.
 */
export interface UrlScope {
  /** The tool family whose allowed origins apply. */
  family: string;
  /** What the URL is, for messages: "layer 'Logo' url". */
  what: string;
  /** The most the body may hold; a longer one is refused without being kept. */
  maxBytes: number;
}

/** A URL (`http://…`, `data:…`, `file:…`): a scheme of two or more characters, then a colon. */
export function looksLikeUrl(text: string): boolean {
  return /^[a-z][a-z0-9+.-]+:/i.test(text);
}
