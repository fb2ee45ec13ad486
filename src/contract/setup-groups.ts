/**
 * The groups `scripts/setup.sh` installs, as `lift doctor` names them: the core by default, a
 * family's programs when it is named (`bash scripts/setup.sh office design`), all with `--all`.
 * The script holds the same lists for a machine that has no Lift built yet;
 * test/scripts/setup-groups.test.ts keeps the two equal.
 */
export const SETUP_GROUPS = {
  core: [
    'chromium',
    'postgresql',
    'hledger',
    'supervisor',
    'openssh-client',
    'sqlite3',
    'git',
    'procps',
    'util-linux',
    'iproute2',
    'python3',
  ],
  office: ['libreoffice-calc', 'libreoffice-impress', 'libreoffice-writer', 'python3-uno', 'poppler-utils'],
  design: [
    'imagemagick',
    'fonts-dejavu-core',
    'librecad',
    'blender',
    'libifcplusplus-dev',
    'libboost-dev',
    'g++',
    'poppler-utils',
  ],
  video: ['melt', 'ffmpeg', 'fontconfig', 'fonts-dejavu-core'],
  desktop: [
    'xvfb',
    'dbus',
    'at-spi2-core',
    'libatk-adaptor',
    'python3-gi',
    'gir1.2-atspi-2.0',
    'gir1.2-gtk-3.0',
    'python3-pyatspi',
    'gnome-calculator',
    'gucharmap',
    'xclip',
  ],
  mail: ['dovecot-imapd', 'dovecot-lmtpd', 'postfix'],
  chat: ['prosody', 'prosody-modules'],
  bed: [
    'mariadb-server',
    'mariadb-client',
    'php-cli',
    'php-mysql',
    'php-intl',
    'php-mbstring',
    'php-xml',
    'wordpress',
    'wordpress-theme-twentytwentythree',
    'mediawiki',
    'phpmyadmin',
    'roundcube-core',
    'roundcube-mysql',
    'redmine',
    'redmine-mysql',
    'tt-rss',
    'ckeditor',
  ],
} as const satisfies Record<string, readonly string[]>;

export type SetupGroup = keyof typeof SETUP_GROUPS;

/**
 * The line that installs a group's programs: the script in a checkout, apt-get anywhere
 * (an installed package has no scripts/ folder). `packages` narrows apt-get to what is missing.
 */
export function setupLine(group: SetupGroup, packages: readonly string[] = SETUP_GROUPS[group]): string {
  const script = group === 'core' ? 'bash scripts/setup.sh' : `bash scripts/setup.sh ${group}`;
  return `${script}   (in a Lift checkout; elsewhere, as root: apt-get install -y --no-install-recommends ${packages.join(' ')})`;
}

export interface Program {
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
export const PROGRAMS: readonly Program[] = [
  {
    name: 'chromium',
    commands: ['chromium'],
    group: 'core',
    debian: ['chromium'],
    usedBy: 'the UI rung, discovery, replay, build_title_animation (lottie-web plays the title)',
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
    name: 'sqlite3',
    commands: ['sqlite3'],
    group: 'core',
    debian: ['sqlite3'],
    usedBy: 'the sqlite3 family of docs/adding-an-app.md',
  },
  { name: 'git', commands: ['git'], group: 'core', debian: ['git'], usedBy: 'the git tools' },
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
    commands: ['ffprobe', 'ffmpeg'],
    group: 'video',
    debian: ['ffmpeg'],
    usedBy: 'build_timeline (measures clips and cuts)',
  },
  {
    name: 'fontconfig',
    commands: ['fc-match'],
    group: 'video',
    debian: ['fontconfig'],
    usedBy: 'build_title_animation (finds the font Chromium draws the title in)',
  },
  {
    name: 'xvfb',
    commands: ['Xvfb'],
    group: 'desktop',
    debian: ['xvfb', 'dbus', 'at-spi2-core'],
    usedBy: 'the desktop rung',
  },
];

/** The setup line for a command Lift runs, when it is one a setup group brings. */
export function setupLineFor(command: string): string | undefined {
  const name = command.split('/').pop() ?? command;
  const program = PROGRAMS.find((known) => known.commands.includes(name));
  return program && setupLine(program.group, program.debian);
}
