import type { LiftError } from './errors.js';
import type { RunEventType } from './events.js';
import type { PathScope, UrlScope } from './paths.js';

/** An event a tool adds to its run's log (actions it performed, things it read back). */
export interface ToolEvent {
  /** One of the catalogue in events.ts. */
  type: RunEventType;
  [key: string]: unknown;
}

/** The person's yes that released a held call. */
export interface ApprovalRecord {
  id: string;
  gate: 'review' | 'signature';
  /** Who said yes (`person`, `mcp client`, a name given to lift approve). */
  by: string;
  /** The preview they saw. */
  preview: string;
  /** The digest the tool's preview returned with it, if any. */
  digest: string | undefined;
}

/**
 * What an implementation gets besides its validated input. Configuration is passed in
 * here; no tool reads process.env.
 */
export interface ToolContext {
  /** Aborted when the deadline passes or the caller cancels. */
  readonly signal: AbortSignal;
  /** Epoch milliseconds at which the call ends with TIMEOUT. */
  readonly deadline: number;
  readonly runId: string;
  readonly requestId: string | undefined;
  /** True when a review or signature gate approved this very call. */
  readonly approved: boolean;
  /** The approval of this very call, when a gate held it and a person said yes. */
  readonly approval: ApprovalRecord | undefined;
  /** Folder this call may write files to. */
  readonly outputDir: string;
  /**
   * The real location of a path the tool was given (symlinks followed, a file not yet there
   * included), or BAD_INPUT naming the roots when it leads outside them or into Lift's home.
   * Every tool that takes a path, from its input or its settings, resolves it here first.
   */
  resolvePath(path: string, scope: PathScope): string;
  /**
   * The body of a URL the tool declared (ToolDefinition.urls): POLICY_BLOCKED when its origin is
   * not allowed for the scope's family or a redirect leads to another origin, BAD_INPUT when the
   * body is over the scope's cap (the read stops there). Follows the call's signal.
   */
  fetchUrl(url: string, scope: UrlScope): Promise<Buffer>;
  /** A file in this call's output folder (created owner-only), refused if a link leads it elsewhere. */
  outputFile(name: string): string;
  /** The value of a named secret; throws AUTH_REQUIRED when it is not stored. */
  secret(name: string): string;
  /** Whether a named secret is stored, without reading it. */
  hasSecret(name: string): boolean;
  /**
   * Whether a text holds any stored secret, in any of its forms, without saying which: what
   * a screenshot of a page needs to black out secrets it shows (a token pasted into a note).
   */
  holdsSecret(text: string): boolean;
  /** Appends an event to the run log (secrets are scrubbed on write). */
  emit(event: ToolEvent): void;
  /**
   * Says that something may now have reached the system. A TIMEOUT after this point
   * reports outcome `unknown`; before it, `not_started`.
   */
  markStarted(): void;
  /**
   * Waits for a person (a page handed over to sign in again): the deadline does not run
   * meanwhile and moves on by the time they took; the caller's cancellation still applies.
   */
  awaitPerson<T>(work: Promise<T>): Promise<T>;
  /** Shared, long-lived services (browser pool, office worker, ...) keyed by name. */
  service<T>(name: string, create: () => T | Promise<T>): Promise<T>;
  /** The declaration of another registered tool (to validate a plan that names tools). */
  tool(name: string): import('./define-tool.js').AnyTool | undefined;
  /** Invokes another registered tool (used for read-backs and settle reads). */
  call(toolName: string, input: unknown): Promise<import('./envelope.js').Envelope>;
  /** Builds a typed error; convenience for implementations. */
  fail(code: LiftError['code'], message: string, options?: ConstructorParameters<typeof LiftError>[2]): never;
}
