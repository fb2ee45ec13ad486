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
  video: ['melt', 'ffmpeg'],
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

/** Commands the tools run, by the group and packages that bring them: a missing one's error names its line. */
const COMMAND_PACKAGES: Record<string, { group: SetupGroup; packages: string[] }> = {
  psql: { group: 'core', packages: ['postgresql'] },
  hledger: { group: 'core', packages: ['hledger'] },
  supervisorctl: { group: 'core', packages: ['supervisor'] },
  'ssh-keygen': { group: 'core', packages: ['openssh-client'] },
  sqlite3: { group: 'core', packages: ['sqlite3'] },
  git: { group: 'core', packages: ['git'] },
  soffice: {
    group: 'office',
    packages: ['libreoffice-calc', 'libreoffice-impress', 'libreoffice-writer', 'python3-uno'],
  },
  pdftotext: { group: 'office', packages: ['poppler-utils'] },
  pdftoppm: { group: 'office', packages: ['poppler-utils'] },
  convert: { group: 'design', packages: ['imagemagick'] },
  magick: { group: 'design', packages: ['imagemagick'] },
  librecad: { group: 'design', packages: ['librecad'] },
  blender: { group: 'design', packages: ['blender'] },
  melt: { group: 'video', packages: ['melt'] },
  ffmpeg: { group: 'video', packages: ['ffmpeg'] },
  ffprobe: { group: 'video', packages: ['ffmpeg'] },
  Xvfb: { group: 'desktop', packages: ['xvfb'] },
};

/** The setup line for a command Lift runs, when it is one a setup group brings. */
export function setupLineFor(command: string): string | undefined {
  const known = COMMAND_PACKAGES[command.split('/').pop() ?? command];
  return known && setupLine(known.group, known.packages);
}
