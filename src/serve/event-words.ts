import { countOf, inSeconds, plural, spaced, textOf } from '../contract/event-fields.js';
import {
  type EventWords,
  type LoggedEvent,
  type RUN_EVENT_TYPES,
  wordsOfAppEvent,
} from '../contract/events.js';
import type { RunEvent } from '../store/runs.js';

/**
 * What a person watching a call reads while it runs (an MCP client's progress bar, the lines
 * `lift call` prints at a terminal), in words, derived from the run log's events here and
 * nowhere else. A line is built from fields the event's emitter chose to record and never
 * from an input's value: a replay step names its target as the capability records it (an
 * input appears as `{{input.NAME}}`), a URL is its origin and path. Secrets are scrubbed by
 * the caller, as the run log scrubs them, since events are heard before the log writes them.
 */
export interface ProgressLine {
  /** `Step 3 of 7: click button "Look up"`. */
  message: string;
  /** Units of the work done once this event happened (steps, pages, rows, percent), when it says. */
  done?: number;
  /** How many units the work has, once an event said (a replay's steps, an import's rows). */
  total?: number;
}

/** `Step 3 of 7: ` when the work said how long it is, `Step 3: ` otherwise. */
function stepOf(event: LoggedEvent, total: number | undefined): string {
  const index = countOf(event, 'index');
  if (index === undefined) return '';
  return total !== undefined ? `Step ${index + 1} of ${total}: ` : `Step ${index + 1}: `;
}

/** What a replay step did: `click button "Look up"`, with how it settled when that was not ok. */
function replayStep(event: LoggedEvent, total: number | undefined, skipped: boolean): string {
  const acted = [textOf(event, 'op'), textOf(event, 'target')].filter(Boolean).join(' ');
  const result = textOf(event, 'result');
  const after = skipped
    ? ' (skipped: the page shows it already)'
    : result && result !== 'ok'
      ? ` (${spaced(result)})`
      : '';
  return `${stepOf(event, total)}${acted}${after}`;
}

/** What a replay's look at the page found, in words; an ordinary page goes unsaid. */
const PAGE_STATES: Readonly<Record<string, string>> = {
  not_found: 'no such record',
  auth_expired: 'a sign-in form: the session expired',
  transient: 'a passing server error',
  app_error: 'an application error',
  dialog: 'a dialog',
  busy: 'a page still busy',
  rejected: 'that the application refused the write',
};

/**
 * Words for every event type: the compiler checks that none is missing. Undefined is a stage
 * every call passes in a blink (validation, the ledger's claim, a passed gate or check) or
 * one the call's result says better (its end): nothing worth a line.
 */
const WORDS: { readonly [Type in (typeof RUN_EVENT_TYPES)[number]]: EventWords } = {
  'call-start': (event) => `Starting ${textOf(event, 'tool') ?? 'the call'}`,
  'input-validated': () => undefined,
  'ledger-claimed': () => undefined,
  'ledger-answered': () => 'Answered from the idempotency ledger: this request_id ran before',
  'gate-passed': () => undefined,
  'gate-held': (event) => `Held at the ${textOf(event, 'gate') ?? 'approval'} gate until a person approves`,
  'check-passed': () => undefined,
  'check-failed': (event) => `Check failed: ${textOf(event, 'name') ?? 'a read-back'}`,
  'call-end': () => undefined,
  'ledger-reclaimed': () => 'Taking over an approved call whose worker stopped',
  'settle-read-end': (event) =>
    event.landed === true ? 'Read back: the write landed' : 'Read back: the write is not there',
  'action-performed': (event) => {
    const what = textOf(event, 'op') ?? textOf(event, 'action');
    const status = textOf(event, 'status');
    return `Did ${what ? spaced(what) : 'an action'}${status && status !== 'executed' ? ` (${status})` : ''}`;
  },
  'chain-step-end': (event) =>
    `Chain step ${textOf(event, 'id') ?? ''}: ${textOf(event, 'tool') ?? ''} ${event.ok === false ? 'failed' : 'answered'}`,
  'capability-disabled': (event) =>
    `Switched ${textOf(event, 'name') ?? 'the capability'} off until a person enables it again`,
  'http-request-sent': (event) => {
    const status = countOf(event, 'status');
    const error = textOf(event, 'error');
    const answer = status !== undefined ? `: ${status}` : error ? `: ${error}` : '';
    return `${textOf(event, 'method') ?? 'HTTP'} ${textOf(event, 'path') ?? ''}${answer}`;
  },
  'rate-limit-waited': (event) =>
    `Rate limited: waiting${inSeconds(countOf(event, 'ms'))} before ${textOf(event, 'path') ?? 'the next request'}`,
  'progress-reported': (event, total) => {
    const said = textOf(event, 'message') ?? spaced(textOf(event, 'stage') ?? 'working');
    const percent = countOf(event, 'percent');
    const steps = countOf(event, 'steps');
    const step = stepOf(event, total);
    if (step) return `${step}${said}`;
    const first = `${said.charAt(0).toUpperCase()}${said.slice(1)}`;
    if (percent !== undefined) return `${first} (${Math.round(percent)}%)`;
    return steps !== undefined ? `${first}: ${plural(steps, 'step')}` : first;
  },
  'audit-recorded': (event) => `Recorded ${spaced(textOf(event, 'effect') ?? 'the change')} in the audit log`,
  'shortlist-chosen': (event) => {
    const tools = Array.isArray(event.tools) ? event.tools.length : 0;
    const groups = Array.isArray(event.groups) ? event.groups.join(', ') : '';
    return `Offering the model ${plural(tools, 'tool')}${groups ? ` (${groups})` : ''}`;
  },
  'tool-call-refused': (event) =>
    `Refused the model's call of ${textOf(event, 'tool') ?? 'a tool'}: ${textOf(event, 'reason') ?? 'not allowed'}`,
  'model-called': (event) => `The model ${textOf(event, 'model') ?? 'called'} answered`,
  'model-retried': (event) =>
    `The model call failed (${textOf(event, 'reason') ?? 'error'}): trying again${inSeconds(countOf(event, 'wait_ms'))}`,
  'model-hedged': () => 'The model is slow: asking a second time alongside',
  'model-preflight-refused': () => 'The model call was refused before it was sent',
  'agent-end': (event) => `The agent finished: ${spaced(textOf(event, 'outcome') ?? 'done')}`,
  'discovery-start': (event) => `Exploring the application for ${textOf(event, 'task') ?? 'the task'}`,
  'page-observed': (event) => `Read the page (${plural(countOf(event, 'tokens') ?? 0, 'token')})`,
  'tool-rejected': (event) =>
    `Refused the explorer's ${textOf(event, 'tool') ?? 'call'}: ${textOf(event, 'reason') ?? 'not allowed'}`,
  'handoff-requested': () => 'Asking a person to take the page over',
  'handoff-end': (event) =>
    event.done === true ? 'The person handed the page back' : 'No person took the page over',
  'discovery-signed-in': () => 'Signed in',
  'complete-rejected': (event) => `The capability was refused: ${textOf(event, 'code') ?? 'not valid'}`,
  'complete-signs-learned': (event) =>
    `Learned ${plural(Array.isArray(event.signs) ? event.signs.length : 0, 'outcome sign')}`,
  'complete-rehearsed': (event) =>
    `Rehearsed the capability ${plural(Array.isArray(event.runs) ? event.runs.length : 0, 'time')}`,
  'discovery-end': (event) => `Exploration ended: ${spaced(textOf(event, 'outcome') ?? 'done')}`,
  'replay-start': (event) =>
    `Replaying ${textOf(event, 'capability') ?? 'the capability'}: ${plural(countOf(event, 'steps') ?? 0, 'step')}`,
  'replay-precondition-checked': (event) =>
    event.matches === false ? 'The start page is not the one the capability was made on' : undefined,
  'replay-step-end': (event, total) => replayStep(event, total, false),
  'replay-step-skipped': (event, total) => replayStep(event, total, true),
  'replay-value-read': (event) => `Read ${textOf(event, 'output') ?? 'a value'}`,
  'replay-page-classified': (event) => {
    const state = textOf(event, 'state');
    return state === undefined || state === 'ok'
      ? undefined
      : `The page shows ${PAGE_STATES[state] ?? spaced(state)}`;
  },
  'replay-page-reloaded': () => 'The application answered with an error: reloading the page once',
  'replay-page-turned': (event) => `Turned to page ${countOf(event, 'page') ?? 'the next page'}`,
  'replay-sign-in-start': () => 'The session expired: signing in again',
  'replay-handoff-start': () => 'The session expired: waiting for a person to sign in',
  'replay-handoff-end': () => 'The person signed in: starting over',
  'replay-checkpoint-checked': (event) =>
    event.passed === false
      ? 'The page does not show the expected result'
      : 'The page shows the expected result',
  'replay-end': (event) => `Replay ended: ${spaced(textOf(event, 'outcome') ?? 'done')}`,
  'ui-session-start': (event) =>
    `Opened a browser page${event.attended === true ? ' (a person watches)' : ''}`,
  'ui-page-observed': (event) => `Read the page (${plural(countOf(event, 'tokens') ?? 0, 'token')})`,
  'ui-action-executed': (event) => `${stepOf(event, undefined)}${textOf(event, 'op') ?? 'action'}`,
  'ui-action-rejected': (event) =>
    `${stepOf(event, undefined)}${textOf(event, 'op') ?? 'action'} refused${textOf(event, 'code') ? ` (${textOf(event, 'code')})` : ''}`,
  'ui-dialog-opened': (event) =>
    `The page opened a${textOf(event, 'dialog') ? ` ${textOf(event, 'dialog')}` : ''} dialog`,
  'ui-dialog-answered': (event) =>
    `Answered the page's ${textOf(event, 'dialog') ?? 'open'} dialog: ${textOf(event, 'response') ?? 'done'}`,
  'ui-request-blocked': (event) =>
    `Blocked a ${textOf(event, 'method') ?? 'page'} request to ${textOf(event, 'origin') ?? 'another origin'}`,
  'ui-popup-closed': () => 'Closed a popup window',
  'ui-sign-in-start': (event) => `Signing in to ${textOf(event, 'url') ?? 'the application'}`,
  'ui-sign-in-end': (event) => (event.ok === false ? 'The sign-in failed' : 'Signed in'),
  'ui-screenshot-taken': () => 'Took a screenshot',
  'ui-budget-exhausted': (event) => `The ${spaced(textOf(event, 'budget') ?? 'session')} budget is used up`,
  'ui-session-end': () => 'Closed the browser page',
  'window-read': (event) =>
    `Read the ${textOf(event, 'program') ?? 'program'} window (${plural(countOf(event, 'elements') ?? 0, 'element')})`,
  'desktop-action-performed': (event) =>
    `${textOf(event, 'op') ?? 'Action'}: ${textOf(event, 'status') ?? 'done'}`,
  'skill-window-read': () => 'Read the window',
  'skill-step-end': (event) => `${stepOf(event, undefined)}${textOf(event, 'op') ?? 'action'}`,
};

/**
 * Reads a call's events in order into lines, keeping what earlier events said about the
 * work's length: `replay-start` and a `progress-reported` with `steps` give a total, the
 * steps after count towards it, a percentage counts towards 100.
 */
export class ProgressWords {
  #total: number | undefined;

  /** The line for one event, or undefined when the event is not worth one. */
  say(event: RunEvent): ProgressLine | undefined {
    const position = positionOf(event);
    if (position.total !== undefined && position.total > 0) this.#total = position.total;
    // A family's event has the words it declared beside its tools; a type a tool loaded at run
    // time made up has none of its own: its name says it.
    const words: EventWords =
      (WORDS as Readonly<Record<string, EventWords>>)[event.type] ??
      wordsOfAppEvent(event.type) ??
      (() => spaced(event.type));
    const message = words(event, this.#total);
    if (message === undefined) return undefined;
    return {
      message,
      ...(position.done !== undefined ? { done: position.done } : {}),
      ...(this.#total !== undefined ? { total: this.#total } : {}),
    };
  }
}

/** Where the work stands by this event, for the few events that count units of it. */
function positionOf(event: RunEvent): { done?: number; total?: number } {
  const index = countOf(event, 'index');
  switch (event.type) {
    case 'replay-start':
      return { total: countOf(event, 'steps') ?? 0 };
    case 'replay-step-end':
    case 'replay-step-skipped':
      return index === undefined ? {} : { done: index + 1 };
    case 'progress-reported': {
      const percent = countOf(event, 'percent');
      if (percent !== undefined) return { done: percent, total: 100 };
      const steps = countOf(event, 'steps');
      return {
        ...(steps !== undefined ? { total: steps } : {}),
        ...(index !== undefined ? { done: index + 1 } : {}),
      };
    }
    default:
      return {};
  }
}

const HIDDEN_FIELDS = new Set(['t', 'duration_ms', 'type']);

/**
 * "replay-step-end: index 2, op click": an event as a developer reads it (LIFT_LOG=debug),
 * its name and its first few fields as recorded.
 */
export function describeEvent(event: RunEvent): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(event)) {
    if (HIDDEN_FIELDS.has(key) || parts.length >= 4) continue;
    if (typeof value === 'string')
      parts.push(`${key} ${value.length > 60 ? `${value.slice(0, 57)}...` : value}`);
    else if (typeof value === 'number' || typeof value === 'boolean') parts.push(`${key} ${value}`);
  }
  return `${event.type}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
}
