/**
 * Every event type a run log holds, in one closed list next to the error codes. Names are
 * noun then verb (`call-start`, `ledger-claimed`, `ui-request-blocked`); a type is stable
 * public interface like a code: readers branch on it, so rename one only with an entry in
 * RENAMED below. The types of `ToolContext.emit` and the run log are this union, so an
 * unknown name does not compile.
 */
export const RUN_EVENT_TYPES = [
  // A call under the contract (runtime/invoke), in the order of its stages.
  'call-start',
  'input-validated',
  'ledger-claimed',
  'ledger-answered',
  'gate-passed',
  'gate-held',
  'check-passed',
  'check-failed',
  'call-end',
  // A call that takes over from an approved call whose approver died.
  'ledger-reclaimed',
  'settle-read-end',
  // Tools, through ToolContext.emit.
  'action-performed',
  'chain-step-end',
  'capability-disabled',
  'http-request-sent',
  'rate-limit-waited',
  'progress-reported',
  'audit-recorded',
  // The agent and the model behind it.
  'shortlist-chosen',
  'tool-call-refused',
  'model-called',
  'model-retried',
  'model-hedged',
  'model-preflight-refused',
  'agent-end',
  // Discovery sessions.
  'discovery-start',
  'page-observed',
  'tool-rejected',
  'handoff-requested',
  'handoff-end',
  'discovery-signed-in',
  'complete-rejected',
  'complete-signs-learned',
  'complete-rehearsed',
  'discovery-end',
  // Model-free replay.
  'replay-start',
  'replay-precondition-checked',
  'replay-step-end',
  'replay-step-skipped',
  'replay-value-read',
  'replay-page-classified',
  'replay-page-reloaded',
  'replay-page-turned',
  'replay-sign-in-start',
  'replay-handoff-start',
  'replay-handoff-end',
  'replay-checkpoint-checked',
  'replay-end',
  // The structured-UI rung's page session.
  'ui-session-start',
  'ui-page-observed',
  'ui-action-executed',
  'ui-action-rejected',
  'ui-dialog-opened',
  'ui-dialog-answered',
  'ui-request-blocked',
  'ui-popup-closed',
  'ui-sign-in-start',
  'ui-sign-in-end',
  'ui-screenshot-taken',
  'ui-budget-exhausted',
  'ui-session-end',
  // The desktop rung and its learned skills.
  'window-read',
  'desktop-action-performed',
  'skill-window-read',
  'skill-step-end',
] as const;

/**
 * The event types a family declares next to its tools (`apps/<family>/events.ts`, through
 * declareAppEvents), merged into this interface by declaration, so a new family adds its
 * events without editing this layer and `ctx.emit` still refuses a name nobody declared:
 *   declare module '../../contract/events.js' { interface AppEvents extends EventsOf<typeof X> {} }
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the families' declaration merging
export interface AppEvents {}

export type AppEventType = Extract<keyof AppEvents, string>;
export type RunEventType = (typeof RUN_EVENT_TYPES)[number] | AppEventType;

/** An event as a reader of the run log sees it: its type and the fields its emitter chose. */
export interface LoggedEvent {
  readonly type: string;
  readonly [key: string]: unknown;
}

/**
 * What a person watching a call reads for one event (a progress line), or undefined for a
 * stage not worth a line; `total` is the work's length once an event said it.
 */
export type EventWords = (event: LoggedEvent, total: number | undefined) => string | undefined;

/** The shape an app's declaration merges into AppEvents: each of its event types. */
export type EventsOf<Declared> = { readonly [Type in keyof Declared]: true };

const OWN: ReadonlySet<string> = new Set(RUN_EVENT_TYPES);
const appEventWords = new Map<string, EventWords>();

/**
 * Declares a family's events with their words, at the load of its events.ts (which its
 * tools import to emit them): a registered tool's events are always known to the readers.
 */
export function declareAppEvents<const Declared extends Readonly<Record<string, EventWords>>>(
  declared: Declared,
): Declared {
  for (const [type, words] of Object.entries(declared)) {
    if (OWN.has(type))
      throw new Error(`Event type ${type} is Lift's own; an app names its events after itself.`);
    appEventWords.set(type, words);
  }
  return declared;
}

/** The words a family declared for one of its events, if its tools are loaded. */
export function wordsOfAppEvent(type: string): EventWords | undefined {
  return appEventWords.get(type);
}

/** Lift's own event types and every family's declared so far. */
export function isRunEventType(type: string): type is RunEventType {
  return OWN.has(type) || appEventWords.has(type);
}

/** Events of a model or its provider: what replay must never emit, counted per run. */
export const MODEL_EVENT_TYPES: ReadonlySet<RunEventType> = new Set<RunEventType>([
  'model-called',
  'model-retried',
  'model-hedged',
  'model-preflight-refused',
]);

/** Names run logs of Lift 0.1.0 (and of the builds before this catalogue) hold, and the name each has now. */
// Values are today's names, Lift's own or a family's (file-already-sent, office-job-end).
const RENAMED: Readonly<Record<string, string>> = {
  start: 'call-start',
  validated: 'input-validated',
  end: 'call-end',
  action: 'action-performed',
  'chain-step': 'chain-step-end',
  http: 'http-request-sent',
  'rate-limit-wait': 'rate-limit-waited',
  'already-sent': 'file-already-sent',
  'office-job': 'office-job-end',
  shortlist: 'shortlist-chosen',
  'model-call': 'model-called',
  'model-retry': 'model-retried',
  'model-hedge': 'model-hedged',
  observation: 'page-observed',
  'replay-precondition': 'replay-precondition-checked',
  'replay-step': 'replay-step-end',
  'replay-read': 'replay-value-read',
  'replay-classify': 'replay-page-classified',
  'replay-reload': 'replay-page-reloaded',
  'replay-sign-in': 'replay-sign-in-start',
  'replay-handoff': 'replay-handoff-start',
  'replay-handoff-done': 'replay-handoff-end',
  'replay-checkpoint': 'replay-checkpoint-checked',
  'ui-observation': 'ui-page-observed',
  'ui-dialog-open': 'ui-dialog-opened',
  'ui-sign-in': 'ui-sign-in-end',
  'ui-screenshot': 'ui-screenshot-taken',
  audit: 'audit-recorded',
  progress: 'progress-reported',
  'desktop-action': 'desktop-action-performed',
  'skill-window': 'skill-window-read',
  'skill-step': 'skill-step-end',
};

/**
 * Today's name of an event as an older log wrote it. Three old names split in two by what
 * the event said (`ledger`, `gate`, `check`); a name no Lift wrote is kept as it was.
 */
export function currentEventType(event: { type: string; [key: string]: unknown }): string {
  switch (event.type) {
    case 'ledger':
      return event.result === 'existing' ? 'ledger-answered' : 'ledger-claimed';
    case 'gate':
      return event.held === true ? 'gate-held' : 'gate-passed';
    case 'check':
      return event.passed === false ? 'check-failed' : 'check-passed';
    default:
      return RENAMED[event.type] ?? event.type;
  }
}
