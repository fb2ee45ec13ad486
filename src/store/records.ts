import type { EffectClass } from '../contract/effects.js';
import type { Approval, ApprovalState } from './approvals.js';
import type { Awaitable } from './awaitable.js';
import type { MaskedInput } from './held-input.js';
import type { LedgerClaim } from './ledger.js';
import type { LeaseOwner } from './processes.js';
import type { RunEvent } from './run-event.js';

/**
 * What a Lift store keeps for every process that shares it, as one interface that both stores
 * implement: the embedded SQLite store (one host, synchronous answers) and the shared
 * PostgreSQL store (many workers on many hosts, answers by promise). Secrets, files and the
 * local indexes (ladder, agent tasks, desktop skills) stay in each host's home.
 */

export type LedgerState = 'in_flight' | 'done' | 'unknown';

/** The idempotency ledger: tool + request id -> what happened (ledger.ts says why). */
export interface LedgerRecords {
  /** Claims the request id for this call, atomically, or says why it cannot run. */
  claim(tool: string, requestId: string, inputHash: string): Awaitable<LedgerClaim>;
  /** Claims it for a call taking over from one that died; the caller settles before it sends. */
  reclaim(tool: string, requestId: string, inputHash: string): Awaitable<LedgerClaim>;
  finish(tool: string, requestId: string, envelope: string): Awaitable<void>;
  markUnknown(tool: string, requestId: string): Awaitable<void>;
  /** Releases the claim of a call that certainly changed nothing, so a retry may run. */
  forget(tool: string, requestId: string): Awaitable<void>;
  state(tool: string, requestId: string): Awaitable<LedgerState | undefined>;
}

export interface HeldCall {
  tool: string;
  input: MaskedInput;
  inputHash: string;
  requestId: string | undefined;
  gate: 'review' | 'signature';
  preview: string;
  digest?: string | undefined;
  phrase: string | undefined;
}

/** Held calls waiting for a person, and what became of them (approvals.ts says how). */
export interface ApprovalRecords {
  hold(entry: HeldCall): Awaitable<Approval>;
  get(id: string): Awaitable<Approval | undefined>;
  findByRequest(tool: string, requestId: string): Awaitable<Approval | undefined>;
  list(states?: ApprovalState[]): Awaitable<Approval[]>;
  /** Pending -> approved, owned by `owner`; exactly one caller wins, across processes and hosts. */
  take(id: string, decidedBy: string, owner: LeaseOwner): Awaitable<boolean>;
  /** Makes `owner` the owner of an approved call whose owner is gone; exactly one caller wins. */
  takeOver(id: string, owner: LeaseOwner): Awaitable<boolean>;
  heartbeat(id: string, owner: LeaseOwner): Awaitable<void>;
  deny(id: string, decidedBy: string): Awaitable<boolean>;
  denyForChange(id: string, decidedBy: string): Awaitable<boolean>;
  linkReplacement(id: string, replacedBy: string | undefined): Awaitable<void>;
  recent(limit?: number): Awaitable<Approval[]>;
  recordExecution(id: string, envelope: string): Awaitable<void>;
  /**
   * Approved -> pending again, for a call that did nothing because its program could not be
   * reached: the person's yes is not used up. `envelope` is that attempt's answer, kept for
   * whoever waits on the call and for the person to read.
   */
  holdAgain(id: string, envelope: string): Awaitable<void>;
}

/** How a run ended: ok (true), failed (false), or held for a person's yes: not ok, yet nothing failed. */
export type RunEnding = boolean | 'held';

/** The index's `ok` column: 1 ok, 0 failed, 2 held (a Lift from before held runs reads 2 as not ok). */
export function okColumn(ending: RunEnding): number {
  return ending === 'held' ? 2 : ending ? 1 : 0;
}

export interface RunRecord {
  id: string;
  kind: string;
  title: string;
  startedAt: string;
  endedAt: string | undefined;
  ok: boolean | undefined;
  /** It ended held for a person's yes (ok is false). */
  held: boolean;
  events: number;
  modelEvents: number;
  /** Where the events are: a JSONL file in the home, or `postgres:` for the shared store. */
  file: string;
}

/**
 * Run events and their index. Writes are queued and flushed in batches (within 50 ms), so
 * they never wait on the store; reads see everything written before them.
 */
export interface RunRecords {
  /** A fresh run id, not yet recorded. */
  newId(): string;
  start(kind: string, title: string): string;
  /** Appends events to a run started with `start`, scrubbed of secrets. */
  append(runId: string, events: RunEvent[]): void;
  end(runId: string, ok: RunEnding): void;
  /** Records a whole run at once (one call of one tool). */
  record(runId: string, kind: string, title: string, events: RunEvent[], ok: RunEnding): void;
  /** Writes everything queued. */
  flush(): Awaitable<void>;
  get(runId: string): Awaitable<RunRecord | undefined>;
  list(limit?: number): Awaitable<RunRecord[]>;
  /** Ids of the runs started at or after `since` (ISO time), oldest first. */
  ids(since?: string): Awaitable<string[]>;
  events(runId: string): Awaitable<RunEvent[]>;
}

/** A capability registered as a tool, and the state of its two-failure switch. */
export interface Registration {
  name: string;
  revision: string;
  effectClass: EffectClass;
  enabled: boolean;
  /** SURFACE_CHANGED failures in a row; two switch the capability off. */
  surfaceFailures: number;
  disabledReason: string | undefined;
  /** The sign-in the replay may do itself: the whole recipe given at registration. */
  signIn: StoredSignInRecipe | undefined;
  registeredAt: string;
}

/**
 * A sign-in recipe as the store keeps it: JSON it does not interpret. The UI rung defines and
 * checks recipes (rungs/ui/sign-in-recipe.ts); the replay reads one back through it (replay/sign-ins.ts).
 */
export interface StoredSignInRecipe {
  readonly version: number;
  readonly fields: readonly unknown[];
}

export interface RegistrationEntry {
  name: string;
  revision: string;
  effectClass: EffectClass;
  signIn?: StoredSignInRecipe | undefined;
}

/** Which capabilities are tools, and the disabled switch (two SURFACE_CHANGED in a row). */
export interface RegistrationRecords {
  /** Registers (or re-registers, which re-enables) a capability revision under its name. */
  register(entry: RegistrationEntry): Awaitable<Registration>;
  get(name: string): Awaitable<Registration | undefined>;
  list(): Awaitable<Registration[]>;
  /** Counts a SURFACE_CHANGED; the second in a row disables the capability. Returns whether it is now off. */
  recordSurfaceChanged(name: string, reason: string): Awaitable<boolean>;
  /** Any run that got past the surface check resets the count. */
  recordSurfaceOk(name: string): Awaitable<void>;
  enable(name: string): Awaitable<boolean>;
}

export interface StoredCapability {
  revision: string;
  name: string;
  intent: string;
  steps: number;
  createdAt: string;
  /** Where its canonical text is: a file in the home, or `postgres:<revision>`. */
  file: string;
}

/**
 * Capabilities by revision: their canonical text and an index by name. Validation and the
 * content address are the capability layer's (capability/store.ts); this only keeps them.
 */
export interface CapabilityRecords {
  /** Keeps a capability's canonical text under its revision (a revision already kept stays as it is). */
  put(entry: {
    revision: string;
    name: string;
    intent: string;
    steps: number;
    text: string;
  }): Awaitable<string>;
  /** The stored canonical text, undefined when no such revision is kept. */
  text(revision: string): Awaitable<string | undefined>;
  /** The newest revision stored under this name. */
  newest(name: string): Awaitable<StoredCapability | undefined>;
  /** Up to `limit` revisions that start with this prefix. */
  withPrefix(prefix: string, limit: number): Awaitable<StoredCapability[]>;
  /** Every stored revision, newest first. */
  list(): Awaitable<StoredCapability[]>;
}
