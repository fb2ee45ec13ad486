import type { Capability } from '../capability/capability.js';
import type { ErrorCode, LiftError } from '../contract/errors.js';
import type { RunEventType } from '../contract/events.js';
import type { ExecutedAction } from './compile.js';
import type { DiscoveryTask, UiDriver } from './types.js';

/**
 * What executed and what was read, for `complete` to compile. A handoff starts it over:
 * what ran before belongs to a page that is gone.
 */
/** An action of the session that is not in the capability, and why: `complete` lists them all. */
export interface LeftOutAction {
  /** The action's number in the session, 1 for the first. */
  action: number;
  op: string;
  reason: string;
}

export class DiscoveryRecord {
  executed: ExecutedAction[] = [];
  /** Every action that ran or was refused and is not in `executed`. */
  leftOut: LeftOutAction[] = [];
  /** Actions counted so far (numbers the left-out ones). */
  actions = 0;
  /** Raw values of the outputs read so far, by name (never shown to an explorer). */
  readonly outputs = new Map<string, string>();
  readonly observationTokens: number[] = [];
  /**
   * The texts discovery's own pages showed (bound values as placeholders, rehearse.ts's keys):
   * an outcome's evidence is only what its example showed and these did not.
   */
  readonly seenTexts = new Set<string>();
  /** The application's error pages the session met (fingerprint.ts errorPageOf), kept across a handoff. */
  readonly errorPages = new Set<string>();
  uiActions = 0;
  /** Some action of this session sent the application a request that can change it. */
  wrote = false;
  /**
   * Texts the pages showed before anything was written, and after (bound values as
   * placeholders): a value in a target that only the pages after the write showed (the new
   * record's number) was made by this run, and a replay on other inputs would not find it.
   */
  readonly textsBeforeWrite = new Set<string>();
  readonly textsAfterWrite = new Set<string>();

  reset(): void {
    this.executed = [];
    this.leftOut = [];
    this.outputs.clear();
  }
}

/** Where the capability starts: the origin and path of the start page, and its fingerprints. */
export interface StartPage {
  origin: string;
  path: string;
  fingerprint: string;
  /** The page's fingerprint at its load event, when its scripts changed it afterwards. */
  loadFingerprint?: string;
}

/** What an explorer tool's handler may use of its session. */
export interface ExplorerContext {
  readonly task: DiscoveryTask;
  readonly ui: UiDriver;
  readonly record: DiscoveryRecord;
  /** A person takes over; undefined when nobody attends the session. */
  readonly handoff: ((reason: string, deadlineMs: number) => Promise<void>) | undefined;
  readonly handoffDeadlineMs: number;
  now(): number;
  /** Adds an event to the session's run log. */
  emit(type: RunEventType, data?: Record<string, unknown>): void;
  /**
   * Counts a refused call against the rejection budget and returns the error to throw;
   * `example` is a corrected call the explorer can copy.
   */
  refuse(code: ErrorCode, message: string, options?: { hint?: string; example?: unknown }): LiftError;
  /** An act call counts each of its actions as a step of the budget. */
  countSteps(count: number): void;
  /** A rejected action inside an act call counts against the rejection budget. */
  countRejected(): void;
  /** The start page recorded when the session opened. */
  start(): StartPage;
  provenance(): Capability['provenance'];
  /** Saves the compiled capability, ends the session as completed, and returns its revision. */
  /** Saves the capability: its revision and the file it is in. */
  complete(capability: Capability): Promise<{ revision: string; file?: string }>;
}
