import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { PROGRAMS, setupLine } from '../../contract/setup-groups.js';
import type { Check } from './check.js';

function onPath(command: string, path: string): string | undefined {
  for (const folder of path.split(delimiter).filter(Boolean)) {
    const file = join(folder, command);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {}
  }
  return undefined;
}

export function nodeCheck(): Check {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 20
    ? { name: 'node', status: 'ok', detail: `v${process.versions.node}` }
    : {
        name: 'node',
        status: 'fail',
        detail: `v${process.versions.node}; Lift needs Node 20 or later`,
        fix: 'install Node 20 (https://nodejs.org or your package manager)',
      };
}

/**
 * Each program found on PATH, with its path; a missing one names its setup group and the line
 * that installs it.
 */
export function programChecks(env: Record<string, string | undefined>): Check[] {
  const path = env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  return PROGRAMS.map((program) => {
    const found = program.commands.map((command) => onPath(command, path)).find(Boolean);
    if (found) return { name: program.name, status: 'ok', detail: `${found} (${program.group})` };
    return {
      name: program.name,
      status: 'warn',
      detail: `not found on PATH (${program.commands.join(' or ')}); needed by ${program.usedBy}; setup group ${program.group}`,
      fix: setupLine(program.group, program.debian),
    };
  });
}
