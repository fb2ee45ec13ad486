import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AnyTool } from '../contract/define-tool.js';
import type { Envelope } from '../contract/envelope.js';
import type { Awaitable } from '../store/awaitable.js';
import { openStore, type Store } from '../store/store.js';
import { approveHeld } from './approve.js';
import { defaultRoots } from './default-roots.js';
import { type InvokeOptions, invoke } from './invoke.js';
import { Registry } from './registry.js';
import type { PathPolicy } from './roots.js';

export interface RuntimeOptions {
  /** Where Lift keeps its database, secrets, run logs and files (default `.lift` of the working folder). */
  home?: string;
  /** Environment to read LIFT_SECRET_* from; passed in, never read inside tools. */
  env?: Record<string, string | undefined>;
  /**
   * A store opened already (the shared PostgreSQL store, postgres/store.ts); by default the
   * embedded SQLite store in `home` is opened.
   */
  store?: Store;
  /**
   * Where an approved call runs. By default in the process that approves it; a runtime whose
   * held calls came from the job queue hands them back to a worker (queue/), which answers
   * undefined for a call that did not come from the queue.
   */
  releaseApproved?: ApprovedCallRelease;
  tools?: Iterable<AnyTool>;
  /** Folder tools write their files to (default `<home>/out`). */
  outputDir?: string;
  /**
   * The working folder: relative paths resolve here, and it is the default root of every tool
   * family unless `defaultRoots` are given, or it is `/`, a system folder or the whole home.
   */
  workingDir?: string;
  /**
   * The roots of every family that has none of its own (lift.config `roots`, `--root`); by
   * default the working folder when it is a project's, else none (path tools then say how to
   * set one). An MCP client's roots replace them for its own calls (InvokeOptions.roots).
   */
  defaultRoots?: readonly string[];
  /** The user's home folder, which is never a default root as a whole (default: os.homedir()). */
  userHome?: string;
  /** Folders tools of a family may reach, by family (lift.config `settings.<family>.roots`). */
  roots?: Readonly<Record<string, readonly string[]>>;
  /** Web origins whose URLs a family's tools may fetch, by family (lift.config `settings.<family>.origins`); none by default. */
  origins?: Readonly<Record<string, readonly string[]>>;
}

export interface ApproveOptions {
  by?: string;
  phrase?: string;
}

export type ApprovedCallRelease = (
  approvalId: string,
  options: ApproveOptions,
) => Promise<Envelope | undefined>;

interface Closable {
  close?: () => unknown;
}

/** A live Lift: its store, its tools and its long-lived services (browser pool, office worker). */
export class Runtime {
  readonly store: Store;
  readonly registry: Registry;
  readonly outputDir: string;
  /** Where results too large for a tool's cap are written in full. */
  readonly overflowDir: string;
  /** Where tools may reach with the paths they are given (see runtime/roots). */
  readonly paths: PathPolicy;
  readonly #services = new Map<string, Promise<unknown>>();
  readonly #releaseApproved: ApprovedCallRelease | undefined;

  constructor(options: RuntimeOptions = {}) {
    const home = resolve(options.store?.home ?? options.home ?? '.lift');
    this.store = options.store ?? openStore(home, options.env ?? {});
    this.#releaseApproved = options.releaseApproved;
    this.registry = new Registry(options.tools ?? []);
    this.outputDir = resolve(options.outputDir ?? join(home, 'out'));
    this.overflowDir = join(this.store.home, 'overflow');
    const workingDir = resolve(options.workingDir ?? process.cwd());
    const userHome = options.userHome ?? homedir();
    const chosen = defaultRoots(options.defaultRoots, workingDir, userHome);
    this.paths = {
      workingDir,
      defaultRoots: chosen.roots,
      noRoot: chosen.noRoot,
      userHome,
      home: this.store.home,
      outputDir: this.outputDir,
      dataDir: join(this.store.home, 'data'),
      families: { ...options.roots },
      origins: { ...options.origins },
    };
  }

  get home(): string {
    return this.store.home;
  }

  invoke(tool: AnyTool | string, input: unknown, options: InvokeOptions = {}): Promise<Envelope> {
    return invoke(this, tool, input, options);
  }

  /** Returns the named service, creating it once; services with close() are closed with the runtime. */
  service<T>(name: string, create: () => T | Promise<T>): Promise<T> {
    let existing = this.#services.get(name);
    if (!existing) {
      existing = Promise.resolve().then(create);
      this.#services.set(name, existing);
      existing.catch(() => this.#services.delete(name));
    }
    return existing as Promise<T>;
  }

  /**
   * Runs a held call exactly once, even when an earlier approver died mid-call (approve.ts).
   * A second approver gets the first execution's envelope, or APPROVAL_DENIED.
   */
  async approve(approvalId: string, options: ApproveOptions = {}): Promise<Envelope> {
    return (await this.#releaseApproved?.(approvalId, options)) ?? approveHeld(this, approvalId, options);
  }

  deny(approvalId: string, by = 'person'): Awaitable<boolean> {
    return this.store.approvals.deny(approvalId, by);
  }

  async close(): Promise<void> {
    const services = [...this.#services.values()];
    this.#services.clear();
    for (const service of services) {
      try {
        const value = (await service) as Closable;
        await value?.close?.();
      } catch {
        // A service that failed to start has nothing to close.
      }
    }
    await this.store.runs.flush();
    await this.store.close();
  }
}
