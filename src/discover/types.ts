import type {
  CapabilityOutcome,
  InputSpec,
  OutputSource,
  OutputSpec,
  Rehearsal,
} from '../capability/capability.js';
import type { SourceReading } from '../capability/page-outputs.js';
import type { PageAnswer } from '../capability/page-texts.js';
import type { StepResult } from '../rungs/ui/act.js';
import type { ActionTarget, UiActionInput } from '../rungs/ui/actions.js';
import type { Target } from '../rungs/ui/locator.js';
import type { Observation } from '../rungs/ui/observe.js';
import type { ElementRecord } from '../rungs/ui/render.js';
import type { ActionTrace } from './action-traces.js';
import type { RehearsalPlan } from './rehearsal.js';

/** What discovery needs of a live UI session (the structured-UI rung provides it). */
export interface UiDriver {
  /** Navigates to the start page, signing the session in when it has a credential. */
  open(url: string): Promise<void>;
  observe(options: {
    screenshot?: boolean;
    find?: { match: string; table?: string | undefined };
    page?: number;
  }): Promise<{
    observation: Observation;
    screenshotPath?: string;
  }>;
  act(actions: UiActionInput[]): Promise<StepResult[]>;
  /** Raw values of the reads, by output name; never shown to an explorer. */
  reads(): Record<string, string>;
  /**
   * A value read as the explorer may see it, redacted, when the policy shows reads
   * (`showReads`, for applications whose data is not sensitive); undefined otherwise.
   */
  shownRead?(raw: string): string | undefined;
  /**
   * Signs in by the session's recipe on the sign-in form the page shows now, when the page
   * and its form are the application's `origin` (AUTH_REQUIRED otherwise); answers the path
   * of that page, or undefined when the session has no sign-in of its own.
   */
  signIn?(origin: string): Promise<{ at: string } | undefined>;
  /**
   * Whether the session signed in (at its start, or midway): a sign-in form shown after that
   * is a session that expired, for a person to sign in again (request_handoff).
   */
  readonly signedIn?: boolean;
  /** Refs of the latest observation, for the checkpoint. */
  refs(): Map<string, ElementRecord>;
  /**
   * The target a checkpoint stores for an element named by a ref or a semantic target: the one
   * that names it alone on the live page (its `nth` kept, as an action's is), a cell's with its
   * table recorded; none when the page does not show it alone, and `absent` when a semantic
   * target matches nothing on the page at all.
   */
  checkTarget(target: ActionTarget): Promise<CheckedTarget>;
  /** Dialog messages accepted by `dialog` actions, in order. */
  acceptedDialogs(): string[];
  /** What the last act noted of each action (page structure, writes, URL after), by batch index. */
  traces(): ReadonlyMap<number, ActionTrace>;
  /** Proves a compiled capability on fresh pages of the same profile before it is written (rehearsal.ts). */
  rehearse(plan: RehearsalPlan): Promise<Rehearsal>;
  /** Fingerprint (SHA-256 of the accessibility skeleton) and URL of the current page. */
  fingerprint(): Promise<{ fingerprint: string; loadFingerprint?: string; url: string }>;
  /**
   * The page's own answer: its headings, messages and short texts, and its documents' HTTP
   * status; `loaded` waits (bounded) for the documents in flight first.
   */
  pageAnswer(options?: { loaded?: boolean }): Promise<PageAnswer>;
  /** What an output source (URL, message, link) reads on the current page, as replay reads it. */
  readSource(source: OutputSource): Promise<SourceReading>;
  /**
   * The error-page hashes (fingerprint.ts errorPageOf) of the documents now shown that the
   * application answered with an error (HTTP 500 or worse, not a gateway's 502-504).
   */
  errorPages?(): Promise<string[]>;
}

export interface Budgets {
  steps: number;
  seconds: number;
  rejected: number;
}

export type SessionOutcome = 'running' | 'completed' | 'budget_exhausted' | 'failed' | 'abandoned';

export interface DiscoveryTask {
  name: string;
  intent: string;
  inputs: InputSpec[];
  outputs: OutputSpec[];
  /** Values bound to the inputs for this session; the explorer never sees them. */
  bound: Record<string, string>;
  startUrl: string;
  outcomes?: CapabilityOutcome[];
}

/** What an explorer gets back from a tool: JSON, redacted, never a bound or read value. */
export type ToolReply =
  | { ok: true; [key: string]: unknown }
  | { ok: false; error: string; message: string; hint?: string; example?: unknown; [key: string]: unknown };

export interface SessionStatus {
  outcome: SessionOutcome;
  steps: number;
  rejected: number;
  elapsedMs: number;
  observations: number[];
  executed: number;
  revision?: string;
  reason?: string;
}

/** A checkpoint's target as the live page shows it: alone (the target to store), absent, or neither (several alike, a stale ref). */
export type CheckedTarget = { target: Target; absent?: undefined } | { target?: undefined; absent?: true };
