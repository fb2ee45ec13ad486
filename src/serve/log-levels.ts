import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { RunEvent } from '../store/runs.js';

/** RFC 5424 severities as MCP orders them, least severe first. */
const SEVERITY: Record<LoggingLevel, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

/**
 * Until a client sets a level, it hears what went wrong and nothing else: a quiet client
 * costs nothing per call, and a failure is never silent.
 */
export const DEFAULT_LOG_LEVEL: LoggingLevel = 'warning';

export function atLeast(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return SEVERITY[level] >= SEVERITY[threshold];
}

/** Steps of the contract itself that say nothing a person watching the log needs. */
const BOOKKEEPING = new Set(['input-validated', 'ledger-claimed', 'gate-passed', 'check-passed']);
const CALL_START = new Set(['call-start']);
const CALL_END = new Set(['call-end']);
const HELD = new Set(['gate-held', 'ledger-answered']);
const TROUBLE = /(rejected|refused|failed|disabled|exhausted|retried|retry|blocked|unknown)/;

/**
 * How loud one run-log event is: a failed call is a warning (a bug inside Lift an error), a
 * failed check or a refused action a warning, a call held for a person or answered from the
 * ledger a notice, the start and end of a call and what tools report an info, the
 * contract's own steps debug.
 */
export function levelOf(event: RunEvent): LoggingLevel {
  const { type } = event;
  if (CALL_END.has(type)) {
    if (event.ok !== false) return 'info';
    // A held call is not ok, but nothing failed: it waits for a person, as gate-held said.
    if (event.code === 'APPROVAL_PENDING') return 'notice';
    return event.code === 'INTERNAL_ERROR' ? 'error' : 'warning';
  }
  if (CALL_START.has(type)) return 'info';
  if (event.passed === false || event.ok === false || type === 'check-failed' || TROUBLE.test(type))
    return 'warning';
  if (HELD.has(type)) return 'notice';
  if (BOOKKEEPING.has(type)) return 'debug';
  return 'info';
}
