import { lstatSync, mkdirSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import type { AnyTool } from '../contract/define-tool.js';
import { LiftError } from '../contract/errors.js';
import { isWithin, looksLikeUrl, type PathScope, PRIVATE_DIR_MODE } from '../contract/paths.js';
import { allowedUrl, originOf } from './urls.js';

/** Where a runtime's tools may reach, fixed when the runtime opens. */
export interface PathPolicy {
  /** Relative paths resolve here, and it is every family's default root. */
  workingDir: string;
  /** Lift's home: never reachable through a tool, except its output folder. */
  home: string;
  /** Lift's output folder (the files tools write): always reachable. */
  outputDir: string;
  /** Where tool families keep their own data (`data/<family>/` of the home): each reaches its own. */
  dataDir: string;
  /** Roots configured by tool family (lift.config `settings.<family>.roots`). */
  families: Readonly<Record<string, readonly string[]>>;
  /**
   * The roots of a family that has none of its own (neither configured nor built in): lift.config
   * `roots`, else `--root`, else the working folder when it is a project's (default-roots.ts). An
   * MCP client's roots take their place for its calls. Empty when none is set.
   */
  defaultRoots: readonly string[];
  /** Why `defaultRoots` is empty, for the refusal. */
  noRoot?: string | undefined;
  /** The user's home folder, which is no root as a whole (default-roots.ts). */
  userHome?: string | undefined;
  /** Origins whose URLs a family's tools may fetch (lift.config `settings.<family>.origins`); none by default. */
  origins: Readonly<Record<string, readonly string[]>>;
}

const LINK_DEPTH = 32;

function refused(message: string, hint: string): LiftError {
  return new LiftError('BAD_INPUT', message, { hint, outcome: 'not_started' });
}

/**
 * The real location of a path, symlinks resolved, also for a file that does not exist yet: the
 * longest existing prefix is resolved and the rest appended. A dangling link is followed to where
 * it points, since writing through it would create the file there.
 */
export function realLocation(path: string, depth = 0): string {
  if (depth > LINK_DEPTH) throw refused('The path has too many symbolic links.', 'Give a direct path.');
  const rest: string[] = [];
  let existing = path;
  for (;;) {
    try {
      return join(realpathSync.native(existing), ...rest);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw refused('The path has too many symbolic links.', 'Give a direct path.');
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        throw refused(`The path cannot be resolved (${code ?? 'error'}).`, 'Give a path the tool can read.');
      }
    }
    const link = lstatOrUndefined(existing);
    if (link?.isSymbolicLink()) {
      const target = resolve(dirname(existing), readlinkSync(existing));
      return realLocation(join(target, ...rest), depth + 1);
    }
    const parent = dirname(existing);
    if (parent === existing) return join(existing, ...rest);
    rest.unshift(basename(existing));
    existing = parent;
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** A family's own data folder in Lift's home. */
export function dataFolder(policy: PathPolicy, family: string): string {
  if (!/^[a-z][a-z0-9_-]{0,63}$/.test(family)) throw new Error(`'${family}' is not a tool family name.`);
  return join(policy.dataDir, family);
}

/**
 * Inside Lift's home and not inside a folder the home opens to tools: the output folder, and
 * the family's own data folder when there is a family (checked on both the given and the real path).
 */
function inHome(policy: PathPolicy, family: string | undefined, ...paths: string[]): boolean {
  const homes = [policy.home, realLocation(policy.home)];
  const open = [policy.outputDir, ...(family === undefined ? [] : [dataFolder(policy, family)])];
  const opened = open.flatMap((folder) => [folder, realLocation(folder)]);
  return paths.some(
    (path) => homes.some((home) => isWithin(path, home)) && !opened.some((folder) => isWithin(path, folder)),
  );
}

/**
 * Where a scope's relative paths and roots resolve: the family's data folder (made owner-only
 * on first use) for data the tool keeps for itself, else the working folder.
 */
function baseOf(policy: PathPolicy, scope: Pick<PathScope, 'family' | 'data'>): string {
  if (!scope.data) return policy.workingDir;
  const folder = dataFolder(policy, scope.family);
  mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
  return folder;
}

/**
 * The folders a scope's family reaches: the operator's for the family, else the tool's own, else
 * the caller's (an MCP client's roots), else the runtime's default roots.
 */
function configuredRoots(
  policy: PathPolicy,
  scope: Pick<PathScope, 'family' | 'roots'>,
  callRoots: readonly string[] | undefined,
): readonly string[] {
  return policy.families[scope.family] ?? scope.roots ?? callRoots ?? policy.defaultRoots;
}

/** The roots a scope allows, resolved to their real locations. */
export function rootsOf(
  policy: PathPolicy,
  scope: Pick<PathScope, 'family' | 'roots' | 'own' | 'data'>,
  callRoots?: readonly string[],
): string[] {
  const base = baseOf(policy, scope);
  const configured = configuredRoots(policy, scope, callRoots);
  const all = [...configured, ...(scope.own ?? []), policy.outputDir, dataFolder(policy, scope.family)];
  return [...new Set(all.map((root) => realLocation(resolve(base, root))))];
}

/** How a person opens folders to path tools, for a refusal that found none open. */
export const SET_A_ROOT =
  'Set a root folder: the MCP client\'s roots (an editor sends its workspace), "roots": ["/path/to/project"] in lift.config.json, or --root /path/to/project (lift serve, lift call, lift run, lift worker); or start Lift from the project folder.';

function checkedLocation(
  policy: PathPolicy,
  path: string,
  what: string,
  scope?: Pick<PathScope, 'family' | 'data'>,
): { lexical: string; real: string } {
  if (path.includes('\0')) throw refused(`${what} contains a NUL character.`, 'Give a plain file path.');
  if (looksLikeUrl(path)) {
    throw refused(
      `${what} ${JSON.stringify(path.slice(0, 200))} is a URL; this field takes a file path, and nothing was fetched.`,
      'Give the path of a file inside the roots; download the file first if it is on the web.',
    );
  }
  const lexical = resolve(scope ? baseOf(policy, scope) : policy.workingDir, path);
  const real = realLocation(lexical);
  if (inHome(policy, scope?.family, lexical, real)) {
    throw refused(
      `${what} leads into Lift's own folder (secrets, database, approvals, run logs), which no tool may read or write.`,
      "Give a file of your own, outside Lift's home; files tools wrote are in its out/ folder.",
    );
  }
  return { lexical, real };
}

/**
 * The real location of a path a tool was given, or BAD_INPUT naming the roots when it (or a
 * symbolic link on the way) leads outside them. The tool then works on the returned path.
 */
export function resolveInRoots(
  policy: PathPolicy,
  path: string,
  scope: PathScope,
  callRoots?: readonly string[],
): string {
  const { real } = checkedLocation(policy, path, scope.what, scope);
  const roots = rootsOf(policy, scope, callRoots);
  if (roots.some((root) => isWithin(real, root))) return real;
  const unset =
    policy.families[scope.family] === undefined &&
    scope.roots === undefined &&
    (callRoots ?? policy.defaultRoots).length === 0;
  if (unset) {
    throw refused(
      `${scope.what} ${JSON.stringify(path)} is outside the folders ${scope.family} tools may use (${roots.join(', ')}): ${policy.noRoot ?? 'no root folder was set'}.`,
      SET_A_ROOT,
    );
  }
  throw refused(
    `${scope.what} ${JSON.stringify(path)} is outside the folders ${scope.family} tools may use: ${roots.join(', ')}.`,
    `Give a path inside one of them (symbolic links are followed). The operator can add folders in lift.config.json: "settings": { "${scope.family}": { "roots": ["/path"] } }.`,
  );
}

/** A file in Lift's output folder, refused when a symbolic link makes it land anywhere else. */
export function resolveOutput(policy: PathPolicy, path: string): string {
  const { real } = checkedLocation(policy, path, 'The output file');
  const output = realLocation(policy.outputDir);
  if (isWithin(real, output)) return real;
  throw refused(
    `The output file would land outside Lift's output folder ${output}: a symbolic link leads elsewhere.`,
    `Remove the link under ${policy.outputDir}, or choose another file_name.`,
  );
}

/**
 * Resolves the paths a tool declares its input names, and checks the origins of the URLs it
 * declares, before anything holds or runs the call.
 */
export function refuseEscapingPaths(
  policy: PathPolicy,
  tool: AnyTool,
  input: unknown,
  callRoots?: readonly string[],
): void {
  for (const { path, scope } of tool.paths?.(input) ?? []) resolveInRoots(policy, path, scope, callRoots);
  for (const { url, scope } of tool.urls?.(input) ?? []) allowedUrl(policy, url, scope);
}

const RootsSetting = z.array(z.string().min(1).max(4_096)).max(100);
const OriginsSetting = z.array(z.string().min(1).max(2_000)).max(100);

/** `settings.<family>.roots` of lift.config, relative entries resolved against the config's folder. */
export function rootsFromSettings(
  settings: Readonly<Record<string, Record<string, unknown>>>,
  base: string,
): Record<string, string[]> {
  const families: Record<string, string[]> = {};
  for (const [family, values] of Object.entries(settings)) {
    if (values.roots === undefined) continue;
    const parsed = RootsSetting.safeParse(values.roots);
    if (!parsed.success) {
      throw new Error(`lift.config settings.${family}.roots must be a list of folder paths.`);
    }
    families[family] = parsed.data.map((root) => (isAbsolute(root) ? root : resolve(base, root)));
  }
  return families;
}

/** `settings.<family>.origins` of lift.config: each entry a web origin (scheme://host[:port]). */
export function originsFromSettings(
  settings: Readonly<Record<string, Record<string, unknown>>>,
): Record<string, string[]> {
  const families: Record<string, string[]> = {};
  for (const [family, values] of Object.entries(settings)) {
    if (values.origins === undefined) continue;
    const parsed = OriginsSetting.safeParse(values.origins);
    const origins = parsed.success ? parsed.data.map(originOf) : [undefined];
    if (origins.some((origin) => origin === undefined)) {
      throw new Error(
        `lift.config settings.${family}.origins must be a list of web origins such as "https://images.example.com".`,
      );
    }
    families[family] = origins as string[];
  }
  return families;
}
