import type { LoggingLevel, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { type Envelope, isPending } from '../contract/envelope.js';
import type { RunEvent } from '../store/runs.js';
import { atLeast, levelOf } from './log-levels.js';

/** How a call's notices reach its client: on the call's own stream (over HTTP, its SSE response). */
export type SendNotice = (notification: ServerNotification) => Promise<void>;

export interface CallNoticeOptions {
  tool: string;
  send: SendNotice;
  /** Secrets out of everything sent: events are heard before the run log scrubs them. */
  scrub: <T>(value: T) => T;
  /** The client's progress token for this call, when it asked for progress. */
  progressToken: string | number | undefined;
  /** The least severe level the client wants; undefined when it never set one. */
  level: LoggingLevel | undefined;
}

/** Progress closer together than this waits, and only the newest of what waited is sent. */
const PROGRESS_GAP_MS = 50;
const QUIET = new Set(['input-validated', 'ledger-claimed', 'gate-passed', 'check-passed']);
const CALL_END = new Set(['call-end']);
const HIDDEN_FIELDS = new Set(['t', 'duration_ms', 'type']);

/** "replay-step: index 2, op click": an event in a line a person reads in a progress bar. */
export function describeEvent(event: RunEvent, total?: number): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(event)) {
    if (HIDDEN_FIELDS.has(key) || parts.length >= 4) continue;
    if (typeof value === 'string')
      parts.push(`${key} ${value.length > 60 ? `${value.slice(0, 57)}...` : value}`);
    else if (typeof value === 'number' || typeof value === 'boolean') parts.push(`${key} ${value}`);
  }
  const step = typeof event.index === 'number' && total ? ` (step ${event.index + 1} of ${total})` : '';
  return `${event.type}${step}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
}

/**
 * What one tool call tells its client while it runs, from the events its run log records:
 * log messages at or above the level the client set, and progress when it sent a token.
 * Nothing is sent once the call has answered (the spec: progress stops at completion).
 */
export class CallNotices {
  readonly #options: CallNoticeOptions;
  #progress = 0;
  #total: number | undefined;
  #lastProgressAt = Number.NEGATIVE_INFINITY;
  /** The newest event that arrived within the gap, sent when the gap is over (or at the end). */
  #waiting: RunEvent | undefined;
  #timer: NodeJS.Timeout | undefined;
  #over = false;
  /** Notices on their way: the result waits for them, or it could overtake the last one. */
  #sending: Array<Promise<void>> = [];

  constructor(options: CallNoticeOptions) {
    this.#options = options;
  }

  /** Whether the call's events are wanted at all; a client that asked for nothing costs nothing per event. */
  get listening(): boolean {
    return this.#options.progressToken !== undefined || this.#options.level !== undefined;
  }

  readonly hear = (event: RunEvent, runId: string): void => {
    if (this.#over) return;
    const { level } = this.#options;
    if (level !== undefined) {
      const eventLevel = levelOf(event);
      if (atLeast(eventLevel, level)) this.#log(eventLevel, { run_id: runId, ...event });
    }
    if (this.#options.progressToken !== undefined && !QUIET.has(event.type) && !CALL_END.has(event.type))
      this.#advance(event);
  };

  /**
   * The call answered. A client that never set a level still hears a failed call as a
   * warning (from the envelope, so nothing was heard per event); then the notices stop.
   */
  end(envelope: Envelope): void {
    this.#flushProgress();
    this.#over = true;
    // A held call is not ok, yet nothing failed: its result says what waits and for whom.
    if (this.#options.level !== undefined || envelope.ok || isPending(envelope)) return;
    const failure =
      'error' in envelope
        ? { code: envelope.error.code, message: envelope.error.message }
        : 'checks' in envelope
          ? { failed_checks: envelope.checks.filter((check) => !check.passed).map((check) => check.name) }
          : {};
    const level = 'error' in envelope && envelope.error.code === 'INTERNAL_ERROR' ? 'error' : 'warning';
    this.#log(level, { type: 'call-failed', tool: this.#options.tool, run_id: envelope.run_id, ...failure });
  }

  #advance(event: RunEvent): void {
    if (typeof event.steps === 'number' && event.steps > 0) this.#total = event.steps;
    this.#progress++;
    const wait = this.#lastProgressAt + PROGRESS_GAP_MS - performance.now();
    if (wait <= 0) {
      this.#sendProgress(event);
      return;
    }
    this.#waiting = event;
    this.#timer ??= setTimeout(() => this.#flushProgress(), wait);
  }

  #flushProgress(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting && !this.#over) this.#sendProgress(waiting);
  }

  #sendProgress(event: RunEvent): void {
    this.#lastProgressAt = performance.now();
    const { progressToken, scrub } = this.#options;
    this.#send({
      method: 'notifications/progress',
      params: {
        progressToken: progressToken as string | number,
        progress: this.#progress,
        message: scrub(describeEvent(event, this.#total)),
      },
    });
  }

  #log(level: LoggingLevel, data: Record<string, unknown>): void {
    this.#send({
      method: 'notifications/message',
      params: { level, logger: `lift.${this.#options.tool}`, data: this.#options.scrub(data) },
    });
  }

  /** Resolves once every notice sent so far has been handed to the transport. */
  async sent(): Promise<void> {
    if (this.#sending.length === 0) return;
    const sending = this.#sending;
    this.#sending = [];
    await Promise.all(sending);
  }

  #send(notification: ServerNotification): void {
    this.#sending.push(
      this.#options.send(notification).catch(() => {
        // The client went away mid-call; the call itself still ends and is recorded.
      }),
    );
  }
}
