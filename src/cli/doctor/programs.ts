import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Check } from './check.js';

interface Program {
  name: string;
  /** Executables to look for, first found wins. */
  commands: string[];
  /** The Debian package that provides it (scripts/setup.sh installs them all). */
  debian: string;
  usedBy: string;
}

/** The Debian programs the built-in tools drive, as scripts/setup.sh lists them. */
const PROGRAMS: Program[] = [
  { name: 'chromium', commands: ['chromium'], debian: 'chromium', usedBy: 'the UI rung, discovery, replay' },
  {
    name: 'libreoffice',
    commands: ['soffice', 'libreoffice'],
    debian: 'libreoffice-calc libreoffice-impress libreoffice-writer python3-uno',
    usedBy: 'the office tools (convert_document, PDFs)',
  },
  { name: 'postgresql client', commands: ['psql'], debian: 'postgresql', usedBy: 'the psql tools' },
  { name: 'hledger', commands: ['hledger'], debian: 'hledger', usedBy: 'the accounting tools' },
  { name: 'poppler', commands: ['pdftotext', 'pdftoppm'], debian: 'poppler-utils', usedBy: 'PDF read-backs' },
  { name: 'supervisor', commands: ['supervisorctl'], debian: 'supervisor', usedBy: 'service_restart' },
  {
    name: 'imagemagick',
    commands: ['magick', 'convert'],
    debian: 'imagemagick fonts-dejavu-core',
    usedBy: 'compose_layered_image',
  },
  { name: 'librecad', commands: ['librecad'], debian: 'librecad', usedBy: 'draw_house_plan' },
  { name: 'blender', commands: ['blender'], debian: 'blender', usedBy: 'render_plan_3d' },
  { name: 'xvfb', commands: ['Xvfb'], debian: 'xvfb dbus at-spi2-core', usedBy: 'the desktop rung' },
  {
    name: 'ssh-keygen',
    commands: ['ssh-keygen'],
    debian: 'openssh-client',
    usedBy: 'lift exec prompt checks',
  },
];

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

/** Each program found on PATH, with its path; a missing one names the Debian package to install. */
export function programChecks(env: Record<string, string | undefined>): Check[] {
  const path = env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  return PROGRAMS.map((program) => {
    const found = program.commands.map((command) => onPath(command, path)).find(Boolean);
    if (found) return { name: program.name, status: 'ok', detail: found };
    return {
      name: program.name,
      status: 'warn',
      detail: `not found on PATH (${program.commands.join(' or ')}); needed by ${program.usedBy}`,
      fix: `apt-get install -y --no-install-recommends ${program.debian}   (as root; or bash scripts/setup.sh)`,
    };
  });
}
