/** The standard search path, used when the caller passes none. */
export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Settings that turn off whatever waits for a person: pagers print straight through,
 * editors and askpass helpers fail at once, credential prompts are disabled, colour and
 * terminal tricks are off, and the locale is fixed so output parses the same everywhere.
 */
const QUIET: Record<string, string> = {
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  SYSTEMD_PAGER: 'cat',
  PSQL_PAGER: 'cat',
  LESS: 'FRX',
  EDITOR: 'false',
  VISUAL: 'false',
  GIT_EDITOR: 'false',
  GIT_SEQUENCE_EDITOR: 'false',
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: 'false',
  SSH_ASKPASS: 'false',
  SSH_ASKPASS_REQUIRE: 'never',
  GCM_INTERACTIVE: 'never',
  DEBIAN_FRONTEND: 'noninteractive',
  NO_COLOR: '1',
  TERM: 'dumb',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
};

export interface EnvironmentOptions {
  /** PATH for the program (the command line passes its own; tools use the standard one). */
  path?: string | undefined;
  /** HOME for the program; a fresh temporary folder keeps personal settings out. */
  home?: string | undefined;
  /** Values the contract adds: program settings, and credentials read from the secret store. */
  extra?: Record<string, string> | undefined;
}

/**
 * The whole environment a wrapped program sees. Nothing is inherited from the wrapper's own
 * environment, so no credential, agent socket or display leaks in by accident.
 */
export function quietEnvironment(options: EnvironmentOptions = {}): Record<string, string> {
  return {
    PATH: options.path ?? DEFAULT_PATH,
    ...(options.home ? { HOME: options.home } : {}),
    ...QUIET,
    ...(options.extra ?? {}),
  };
}
