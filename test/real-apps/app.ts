export type AppName = 'wordpress' | 'mediawiki' | 'phpmyadmin' | 'roundcube' | 'redmine' | 'ttrss' | 'notes';

export const APP_NAMES: readonly AppName[] = [
  'wordpress',
  'mediawiki',
  'phpmyadmin',
  'roundcube',
  'redmine',
  'ttrss',
  'notes',
];

export interface Credentials {
  user: string;
  password: string;
}

/** One running application of the bed. Everything lives in `dir` and goes away with `stop()`. */
export interface RealApp<State, Seed> {
  readonly name: AppName;
  /** The application's root URL, ending in a slash. */
  readonly baseUrl: string;
  /** scheme://host:port, for policies. */
  readonly origin: string;
  /** The page a signed-in person starts from (the admin or start page). */
  readonly startUrl: string;
  /** The application's sign-in page. */
  readonly signInUrl: string;
  /** The administrator's (or the first mail user's) login. */
  readonly credentials: Credentials;
  /** What seeding created: names, ids, other users. */
  readonly seed: Seed;
  /** Reads the application's state through its own interfaces (REST, api.php, SQL, IMAP). */
  readonly state: State;
  /** The temporary folder holding configs, data and logs. */
  readonly dir: string;
  /** Back to the seeded state (every session signed out with it); a few seconds at most. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}
