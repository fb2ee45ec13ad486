/**
 * Every error code Lift returns, in one place. A code is stable public interface:
 * scripts and agents branch on it, so never rename one; add a new one instead.
 * `retry` tells the caller what a second identical call would do:
 *   yes          - safe to call again as is (nothing happened, or the call is a read)
 *   no           - calling again will fail the same way; change the call first
 *   after_check  - the outcome is unknown; run the settle read before any retry
 */
export type RetryAdvice = 'yes' | 'no' | 'after_check';

export interface ErrorSpec {
  readonly retry: RetryAdvice;
  /** What to try next, in general terms; a tool may give a more precise hint. */
  readonly hint: string;
}

export const ERROR_CODES = {
  BAD_INPUT: { retry: 'no', hint: 'Fix the named field and call again; the example shows a correct call.' },
  AUTH_REQUIRED: {
    retry: 'no',
    hint: 'The session or credential is missing or expired. A person must sign in or store the secret (lift secrets set NAME); the model cannot supply it.',
  },
  SURFACE_CHANGED: {
    retry: 'no',
    hint: 'The program no longer looks like the one this tool was built for. Rediscover or update the tool; do not retry blindly.',
  },
  TIMEOUT: {
    retry: 'after_check',
    hint: 'The call ran out of time. If the outcome is unknown, run the settle read before trying again.',
  },
  PROMPT_UNEXPECTED: {
    retry: 'no',
    hint: 'The program asked a question the tool does not know how to answer. Pass the answer as an argument or extend the contract.',
  },
  PROGRAM_FAILED: {
    retry: 'no',
    hint: 'The program exited with an error; the hint carries the tail of its error output.',
  },
  REQUEST_ID_REUSED: {
    retry: 'no',
    hint: 'This request_id was already used with different input. Use a new request_id for a new operation.',
  },
  IN_FLIGHT: {
    retry: 'after_check',
    hint: 'A call with this request_id is still running. Wait for it, then read its result with the same request_id.',
  },
  OUTCOME_UNKNOWN: {
    retry: 'after_check',
    hint: 'An earlier call with this request_id ended without a known outcome. Run the settle read, then use a new request_id if the write did not land.',
  },
  NOT_FOUND: {
    retry: 'no',
    hint: 'The named record does not exist. Check the identifier or list the records first.',
  },
  CONFLICT: { retry: 'after_check', hint: 'The record changed under the call. Read it again, then decide.' },
  RATE_LIMITED: {
    retry: 'yes',
    hint: 'The system asked to slow down. Wait for the time given, then call again.',
  },
  UPSTREAM_ERROR: {
    retry: 'after_check',
    hint: 'The system answered with a server error. Reads may be retried; settle writes first.',
  },
  UNEXPECTED_STATE: {
    retry: 'no',
    hint: 'The action changed the page, but not into the expected state. Observe again before the next action.',
  },
  NO_CHANGE: {
    retry: 'no',
    hint: 'The action had no effect on the page. The hint names what appears to block it.',
  },
  POLICY_BLOCKED: {
    retry: 'no',
    hint: 'The policy forbids this action or destination. Choose an allowed action, or ask a person to change the policy.',
  },
  SAFETY_BLOCKED: {
    retry: 'no',
    hint: 'The safety classifier rated this action too risky for an unattended run. Request a handoff to a person.',
  },
  CHECK_FAILED: {
    retry: 'no',
    hint: 'The tool ran, but reading the result back did not confirm it. See the failed checks.',
  },
  AMBIGUOUS_TARGET: {
    retry: 'no',
    hint: 'An element the tool reads or acts on matches several on this page (its data differs from the data the tool was made on), so nothing was read from or done to any of them. Look at the page; the tool needs a target that names one (a key column, the table it is in).',
  },
  PARTIAL_IMPORT: {
    retry: 'after_check',
    hint: 'The system accepted only some records. The rejected rows are listed; fix them and import those alone.',
  },
  LOCKED: { retry: 'yes', hint: 'Someone else holds the lock on the file. Try again later.' },
  UPSTREAM_UNAVAILABLE: {
    retry: 'yes',
    hint: 'The program or server the tool drives could not be reached (connection refused, no such host, down), so nothing was sent. Start it or fix its address in the settings, then call again. An approved call that met this stays held, its approval not used up: approve it again once the program is up.',
  },
  NOT_CONFIGURED: {
    retry: 'no',
    hint: 'The tool does not know where its program lives (a folder or file). The operator sets it in lift.config, under settings.<family> (docs/config.md lists each key); the model cannot.',
  },
  APPROVAL_PENDING: {
    retry: 'no',
    hint: "Nothing ran: the call is held for a person's yes, and pending.approval_id names it. Do not call again (that only asks again). Wait for the answer: lift call --wait waits for it; a person answers in the console (lift console) or with lift approve ID (lift deny ID); approval_status or lift approvals tells its state.",
  },
  APPROVAL_DENIED: { retry: 'no', hint: 'A person denied this call. Change the request or ask them why.' },
  APPROVAL_NOT_FOUND: {
    retry: 'no',
    hint: 'No held call has that approval id. List held calls with lift approvals.',
  },
  APPROVAL_STALE: {
    retry: 'yes',
    hint: 'What the person approved is no longer what would be done: it changed after the yes. Nothing was done. Call again to show the new preview and ask again.',
  },
  CONFIRMATION_MISMATCH: {
    retry: 'no',
    hint: 'A signature gate needs the exact confirmation phrase shown in the preview.',
  },
  CAPABILITY_DISABLED: {
    retry: 'no',
    hint: 'This capability failed twice in a row and was switched off. Rediscover it, or re-enable it (lift capabilities enable).',
  },
  REVISION_MISMATCH: {
    retry: 'no',
    hint: 'The capability content does not hash to its pinned revision. Use the stored revision or rediscover.',
  },
  BUDGET_EXHAUSTED: {
    retry: 'no',
    hint: 'The run used its step, time or rejection budget. Start a new run with a narrower task.',
  },
  UNKNOWN_TOOL: { retry: 'no', hint: 'No tool has that name. List the tools with lift tools list.' },
  HANDOFF_REQUIRED: {
    retry: 'after_check',
    hint: 'A person must act in the browser (sign in, second factor). The run resumes when they are done.',
  },
  APP_ERROR: { retry: 'no', hint: 'The application showed an error page. A masked screenshot is attached.' },
  UNHEALTHY_AFTER_RESTART: {
    retry: 'no',
    hint: 'The service restarted but did not report healthy. Inspect its logs before another restart.',
  },
  REQUEST_REFUSED: {
    retry: 'no',
    hint: 'Doing this would break a rule of the tool, so nothing was changed. The message says why; the hint names what would work instead.',
  },
  CANCELLED: { retry: 'after_check', hint: 'The caller cancelled the call. Settle before trying again.' },
  INTERNAL_ERROR: { retry: 'no', hint: 'Lift itself failed; this is a bug. The run log has the details.' },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Codes every tool can return whatever its contract lists. */
export const ALWAYS_PRESENT: readonly ErrorCode[] = [
  'AUTH_REQUIRED',
  'SURFACE_CHANGED',
  'TIMEOUT',
  'BAD_INPUT',
];

export type Outcome = 'not_started' | 'unknown';

export interface LiftErrorOptions {
  hint?: string;
  outcome?: Outcome;
  settle?: string;
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * The one way a tool implementation reports a failure. The invoker turns it into an
 * error envelope; implementations never build envelopes themselves.
 */
export class LiftError extends Error {
  override readonly name = 'LiftError';
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly outcome: Outcome | undefined;
  readonly settle: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: LiftErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.outcome = options.outcome;
    this.settle = options.settle;
    this.details = options.details;
  }
}

/** A tool's own advice for one code (define-tool's ToolErrorSpec, by shape: this layer is below it). */
interface ToolAdvice {
  readonly retry?: RetryAdvice;
  readonly hint: string;
}

/**
 * What an error envelope advises, by one rule, wherever an envelope is made:
 * - `retry` is the tool's when its `errors` map gives one (it knows what a second call of it
 *   does: a CONFLICT on an idempotent write may be safe to repeat), else the catalogue's;
 * - `hint` is the most particular one known: the thrown error's (it names this call's
 *   situation, such as the tail of a program's error output), followed by the tool's when it
 *   says something the thrown one does not, so neither is dead text; else the catalogue's.
 */
export function errorAdvice(
  code: ErrorCode,
  thrown: { readonly hint?: string | undefined } = {},
  tool: ToolAdvice | undefined = undefined,
): { retry: RetryAdvice; hint: string } {
  const retry = tool?.retry ?? ERROR_CODES[code].retry;
  const own = thrown.hint?.trim();
  const tools = tool?.hint.trim();
  if (own && tools && !own.includes(tools)) return { retry, hint: `${own} ${tools}` };
  return { retry, hint: own || tools || ERROR_CODES[code].hint };
}

/**
 * True for a LiftError, including one made by another copy of this module (a tools module
 * loaded from a config file may import Lift from elsewhere); codes must still be known.
 */
export function isLiftError(value: unknown): value is LiftError {
  if (value instanceof LiftError) return true;
  return (
    value instanceof Error &&
    value.name === 'LiftError' &&
    typeof (value as unknown as { code?: unknown }).code === 'string' &&
    (value as unknown as { code: string }).code in ERROR_CODES
  );
}
