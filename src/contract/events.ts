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
  'journal-appended',
  'service-status-read',
  'inventory-item-created',
  'file-written',
  'file-already-sent',
  'temp-removed',
  'export-read',
  'deck-written',
  'office-job-start',
  'office-job-end',
  'progress-reported',
  'audit-recorded',
  'email-draft-saved',
  'draft-written',
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

export type RunEventType = (typeof RUN_EVENT_TYPES)[number];

const KNOWN: ReadonlySet<string> = new Set(RUN_EVENT_TYPES);

export function isRunEventType(type: string): type is RunEventType {
  return KNOWN.has(type);
}

/** Events of a model or its provider: what replay must never emit, counted per run. */
export const MODEL_EVENT_TYPES: ReadonlySet<RunEventType> = new Set<RunEventType>([
  'model-called',
  'model-retried',
  'model-hedged',
  'model-preflight-refused',
]);

/** Names run logs of Lift 0.1.0 (and of the builds before this catalogue) hold, and the name each has now. */
const RENAMED: Readonly<Record<string, RunEventType>> = {
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
