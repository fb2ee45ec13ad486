import type { Page } from 'playwright-core';
import type { CapabilityOutcome } from '../capability/capability.js';
import type { ToolEvent } from '../contract/context.js';
import type { EffectClass } from '../contract/effects.js';
import type { UiPolicy } from '../rungs/ui/policy.js';
import type { SignInRecipe } from '../rungs/ui/sign-in.js';
import type { OutputValue } from './values.js';

export interface HandoffRequest {
  reason: string;
  deadlineMs: number;
}

export interface ReplayOptions {
  /** A page of a signed-in browser context; replay navigates it to the start page. */
  page: Page;
  /** Pinned revision: the capability must hash to it, or nothing touches the page. */
  revision?: string;
  /** Skip the start page fingerprint and rely on the semantic locators alone. */
  layoutTolerant?: boolean;
  /** Reads may start over after a handoff; writes never repeat a step that can change state. */
  effectClass?: EffectClass;
  /** Attended (headed) runs: a person signs in again; resolves when they are done. */
  handoff?: (request: HandoffRequest) => Promise<void>;
  /** Folder for masked screenshots (each is also a ui-screenshot-taken event of the run). */
  evidenceDir: string;
  emit?: (event: ToolEvent) => void;
  /** Bound for each step's wait (default UI_DEFAULTS.replayStepTimeoutMs). */
  stepTimeoutMs?: number;
  /** What the page may request (default replayPolicy: the capability's origin, any path). */
  policy?: UiPolicy;
  /** The session's own sign-in (passwordFormSignIn), tried once when the page asks for it. */
  signIn?: SignInRecipe;
  /** Reads a named secret for the sign-in (ToolContext.secret). */
  secret?: (name: string) => string;
  /** Whether a text holds a stored secret (ToolContext.holdsSecret): evidence screenshots black it out. */
  isSecret?: (text: string) => boolean;
  /** Keeps the browser profile after a sign-in (a pooled lease's save). */
  saveProfile?: () => Promise<void>;
  /** Called just before the first step that could change the application (capability/effects.ts). */
  markStarted?: () => void;
  /**
   * Called once the start page has loaded, before it is classified: a rehearsal's read-back
   * puts each frame back where the write left it (rehearsal.ts).
   */
  afterStart?: (page: Page) => Promise<void>;
}

export interface ReplayResult {
  outcome: CapabilityOutcome;
  outputs: Record<string, OutputValue>;
  revision: string;
  /** Steps performed, including those of a restart after a handoff. */
  stepsRun: number;
  checkpoint: { expected: string; actual: string; passed: boolean } | undefined;
  reloads: number;
  handoffs: number;
  durationMs: number;
  /** For a rejected write: the application's message, as it showed it. */
  message?: string;
}

/**
 * How a step, or a look at the page, ends: go on, the record is not there, the record a write
 * would make is already there, the application refused the write, or start over.
 */
export type Settled = 'ok' | 'not_found' | 'already_exists' | 'rejected' | 'restart';
