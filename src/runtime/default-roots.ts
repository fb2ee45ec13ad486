import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { isWithin } from '../contract/paths.js';
import { realLocation } from './roots.js';

/** Folders whose whole content is the system's, never one project's: a root there is every file of a kind. */
const SYSTEM_TREES = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/run',
  '/sbin',
  '/sys',
  '/usr',
  '/var/cache',
  '/var/lib',
  '/var/log',
  '/var/mail',
  '/var/spool',
  '/System',
  '/Library',
  '/private/etc',
  '/private/var/db',
];

/** Folders that hold many people's or programs' folders: a root there is all of them (a project inside is fine). */
const SHARED_FOLDERS = [
  '/home',
  '/Users',
  '/root',
  '/tmp',
  '/var',
  '/var/tmp',
  '/opt',
  '/srv',
  '/mnt',
  '/media',
  '/snap',
  '/Volumes',
  '/private',
  '/private/tmp',
  '/private/var',
  '/Applications',
];

/**
 * Why `folder` means nothing as a root, or undefined when it is a project's folder: the whole
 * disk, the user's whole home (or a folder holding it), a system folder or a folder shared by
 * everyone. Desktop MCP clients start servers from `/` or the home; neither says which files the
 * person meant to open to a model.
 */
export function broadFolder(folder: string, userHome: string | undefined): string | undefined {
  const real = realLocation(resolve(folder));
  if (real === '/') return 'the whole disk';
  const home = userHome ? realLocation(resolve(userHome)) : undefined;
  if (home !== undefined && isWithin(home, real)) {
    return real === home ? 'your whole home folder' : 'a folder holding your whole home folder';
  }
  if (SYSTEM_TREES.some((tree) => isWithin(real, tree) || isWithin(real, realLocation(tree)))) {
    return 'a system folder';
  }
  if (SHARED_FOLDERS.some((shared) => real === shared || real === realLocation(shared))) {
    return 'a folder shared by everyone on the machine';
  }
  return undefined;
}

export interface DefaultRoots {
  /** The folders every family reaches unless it has roots of its own; empty when none is set. */
  roots: string[];
  /** Why there is none: the working folder and why it is no root. */
  noRoot: string | undefined;
}

/**
 * The roots of a runtime's calls when the caller brings none (an MCP client's roots come with
 * each call): the ones the operator gave (lift.config `roots`, else `--root`), else the working
 * folder when it is a project's, else none, and path tools say how to set one.
 */
export function defaultRoots(
  given: readonly string[] | undefined,
  workingDir: string,
  userHome: string | undefined = homedir(),
): DefaultRoots {
  if (given && given.length > 0)
    return { roots: given.map((root) => resolve(workingDir, root)), noRoot: undefined };
  const broad = broadFolder(workingDir, userHome);
  if (broad === undefined) return { roots: [workingDir], noRoot: undefined };
  return {
    roots: [],
    noRoot: `Lift was started from ${workingDir}, ${broad}, which is no root of its own, and no root folder was set`,
  };
}
