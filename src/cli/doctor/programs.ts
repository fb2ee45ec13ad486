import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { type SetupGroup, setupLine } from '../../contract/setup-groups.js';
import type { Check } from './check.js';

interface Program {
  name: string;
  /** Executables to look for, first found wins. */
  commands: string[];
  /** The setup group whose packages bring it. */
  group: SetupGroup;
  /** The Debian packages that provide it, a part of the group's. */
  debian: string[];
  usedBy: string;
}

/** The Debian programs the built-in tools drive, by the setup group that installs each. */
const PROGRAMS: Program[] = [
  {
    name: 'chromium',
    commands: ['chromium'],
    group: 'core',
    debian: ['chromium'],
    usedBy: 'the UI rung, discovery, replay',
  },
  {
    name: 'postgresql client',
    commands: ['psql'],
    group: 'core',
    debian: ['postgresql'],
    usedBy: 'the psql tools',
  },
  {
    name: 'hledger',
    commands: ['hledger'],
    group: 'core',
    debian: ['hledger'],
    usedBy: 'the accounting tools',
  },
  {
    name: 'supervisor',
    commands: ['supervisorctl'],
    group: 'core',
    debian: ['supervisor'],
    usedBy: 'service_restart',
  },
  {
    name: 'ssh-keygen',
    commands: ['ssh-keygen'],
    group: 'core',
    debian: ['openssh-client'],
    usedBy: 'lift exec prompt checks',
  },
  {
    name: 'libreoffice',
    commands: ['soffice', 'libreoffice'],
    group: 'office',
    debian: ['libreoffice-calc', 'libreoffice-impress', 'libreoffice-writer', 'python3-uno'],
    usedBy: 'the office tools (convert_document, PDFs)',
  },
  {
    name: 'poppler',
    commands: ['pdftotext', 'pdftoppm'],
    group: 'office',
    debian: ['poppler-utils'],
    usedBy: 'PDF read-backs',
  },
  {
    name: 'imagemagick',
    commands: ['magick', 'convert'],
    group: 'design',
    debian: ['imagemagick', 'fonts-dejavu-core'],
    usedBy: 'compose_layered_image',
  },
  {
    name: 'librecad',
    commands: ['librecad'],
    group: 'design',
    debian: ['librecad'],
    usedBy: 'draw_house_plan',
  },
  { name: 'blender', commands: ['blender'], group: 'design', debian: ['blender'], usedBy: 'render_plan_3d' },
  {
    name: 'melt',
    commands: ['melt'],
    group: 'video',
    debian: ['melt'],
    usedBy: 'build_timeline (renders the timeline)',
  },
  {
    name: 'ffmpeg',
    commands: ['ffprobe'],
    group: 'video',
    debian: ['ffmpeg'],
    usedBy: 'build_timeline (measures clips and cuts)',
  },
  {
    name: 'xvfb',
    commands: ['Xvfb'],
    group: 'desktop',
    debian: ['xvfb', 'dbus', 'at-spi2-core'],
    usedBy: 'the desktop rung',
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
