import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { PRIVATE_DIR_MODE } from '../../contract/paths.js';
import type { StorageState } from './storage-state.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Flags for Debian's Chromium in containers and CI: no sandbox (root), no background traffic,
 * and frames of other sites in the page's own process, so that the page's request guard
 * (one Fetch session per page) sees every request of every frame (request-guard.ts).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
  '--disable-site-isolation-trials',
];

/**
 * Every context Lift makes: no service workers (their requests no page's guard sees) and no
 * downloads; a window of a common laptop size.
 */
export function liftContextOptions(viewport?: { width: number; height: number }) {
  return {
    viewport: viewport ?? { width: 1280, height: 900 },
    serviceWorkers: 'block',
    acceptDownloads: false,
  } as const;
}

export interface LaunchOptions {
  /** Show the window so a person can take over; headless by default. */
  headed?: boolean;
  executablePath?: string;
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  // playwright-core takes a second to load: only a call that opens a browser pays for it.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: options.executablePath ?? CHROMIUM_PATH,
    headless: !options.headed,
    args: CHROMIUM_ARGS,
  });
}

export interface PoolOptions extends LaunchOptions {
  /** Folder holding one sub-folder per profile (its cookies and storage). */
  profilesDir: string;
  /** Contexts kept ready ahead of demand. */
  warm?: number;
  viewport?: { width: number; height: number };
}

/** A browser context lent by the pool; `release()` saves its profile and returns a fresh one to the pool. */
export interface Lease {
  readonly context: BrowserContext;
  readonly profile: string;
  /** Saves the profile (cookies, local storage) so the next lease of it is still signed in. */
  save(): Promise<void>;
  release(): Promise<void>;
}

const PROFILE_NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/i;

/**
 * One browser, a few contexts made ahead of time. Each lease gets its own context loaded with
 * the named profile's storage, so a call pays neither a browser start nor a context start
 * and profiles never share cookies.
 */
export class BrowserPool {
  readonly #browser: Browser;
  readonly #options: PoolOptions;
  readonly #ready: Array<Promise<BrowserContext>> = [];
  readonly #leased = new Set<BrowserContext>();
  #closed = false;

  private constructor(browser: Browser, options: PoolOptions) {
    this.#browser = browser;
    this.#options = options;
    mkdirSync(options.profilesDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    this.#fill();
  }

  static async start(options: PoolOptions): Promise<BrowserPool> {
    return new BrowserPool(await launchBrowser(options), options);
  }

  /** Wraps a browser the caller launched (and closes); the pool closes only its contexts. */
  static fromBrowser(browser: Browser, options: PoolOptions): BrowserPool {
    return new BrowserPool(browser, options);
  }

  get browser(): Browser {
    return this.#browser;
  }

  get headed(): boolean {
    return Boolean(this.#options.headed);
  }

  /**
   * A context loaded with the profile's saved storage, then with `storageState` when given
   * (a person's saved sign-in, kept in the profile when the lease is saved).
   */
  async acquire(profile = 'default', storageState?: StorageState): Promise<Lease> {
    if (this.#closed) throw new Error('The browser pool is closed.');
    if (!PROFILE_NAME.test(profile))
      throw new Error(`Profile names are letters, digits, . _ -: '${profile}'.`);
    const next = this.#ready.shift() ?? this.#newContext();
    this.#fill();
    const context = await next;
    const stateFile = this.#stateFile(profile);
    if (existsSync(stateFile)) await context.setStorageState(stateFile);
    if (storageState) await context.setStorageState(storageState);
    this.#leased.add(context);
    const save = async (): Promise<void> => {
      const state = await context.storageState();
      mkdirSync(join(this.#options.profilesDir, profile), { recursive: true, mode: PRIVATE_DIR_MODE });
      writeFileSync(stateFile, JSON.stringify(state), { mode: 0o600 });
    };
    return {
      context,
      profile,
      save,
      release: async () => {
        if (!this.#leased.delete(context)) return;
        await save().catch(() => undefined);
        await context.close().catch(() => undefined);
      },
    };
  }

  async close(options: { keepBrowser?: boolean } = {}): Promise<void> {
    this.#closed = true;
    const contexts = [
      ...this.#leased,
      ...(await Promise.all(this.#ready.splice(0).map((ready) => ready.catch(() => null)))),
    ];
    await Promise.all(contexts.map((context) => context?.close().catch(() => undefined)));
    if (!options.keepBrowser) await this.#browser.close().catch(() => undefined);
  }

  #stateFile(profile: string): string {
    return join(this.#options.profilesDir, profile, 'storage-state.json');
  }

  #newContext(): Promise<BrowserContext> {
    return this.#browser.newContext(liftContextOptions(this.#options.viewport));
  }

  #fill(): void {
    if (this.#closed) return;
    while (this.#ready.length < (this.#options.warm ?? 2)) {
      const ready = this.#newContext();
      ready.catch(() => undefined);
      this.#ready.push(ready);
    }
  }
}
