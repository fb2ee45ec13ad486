import type { LoggingLevel, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { type Envelope, isPending } from '../contract/envelope.js';
import type { RunEvent } from '../store/runs.js';
import { type ProgressLine, ProgressWords } from './event-words.js';
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

/**
 * What one tool call tells its client while it runs, from the events its run log records:
 * log messages at or above the level the client set, and progress when it sent a token.
 * Nothing is sent once the call has answered (the spec: progress stops at completion).
 */
export class CallNotices {
  readonly #options: CallNoticeOptions;
  readonly #words = new ProgressWords();
  /** Units of the work done (steps of a replay, rows of an import), as the events counted them. */
  #done = 0;
  /** Notices sent since the work last advanced a unit: each sits a little further on. */
  #between = 0;
  #lastProgress = Number.NEGATIVE_INFINITY;
  #lastProgressAt = Number.NEGATIVE_INFINITY;
  /** The newest line that arrived within the gap, sent when the gap is over (or at the end). */
  #waiting: ProgressLine | undefined;
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
    if (this.#options.progressToken !== undefined) {
      const line = this.#words.say(event);
      if (line) this.#advance(line);
    }
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

  #advance(line: ProgressLine): void {
    if (line.done !== undefined && line.done > this.#done) {
      this.#done = line.done;
      this.#between = 0;
    }
    const wait = this.#lastProgressAt + PROGRESS_GAP_MS - performance.now();
    if (wait <= 0) {
      this.#sendProgress(line);
      return;
    }
    this.#waiting = line;
    this.#timer ??= setTimeout(() => this.#flushProgress(), wait);
  }

  #flushProgress(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting && !this.#over) this.#sendProgress(waiting);
  }

  /**
   * The spec wants each notice's progress above the last one's and, with a total, at most the
   * total. A notice sent when the work advanced says how far (step 3 of 7: 3); one between two
   * units sits between them (3.5, then 3.67), so a sign-in that starts the steps over moves
   * nothing back. Once every unit is done, what is left (the checkpoint, the end) is the
   * result's to say: such notices are not sent.
   */
  #sendProgress(line: ProgressLine): void {
    let progress = this.#done;
    if (progress <= this.#lastProgress) {
      this.#between++;
      progress = this.#done + this.#between / (this.#between + 1);
    }
    if (line.total !== undefined && progress > line.total) return;
    this.#lastProgress = progress;
    this.#lastProgressAt = performance.now();
    const { progressToken, scrub } = this.#options;
    this.#send({
      method: 'notifications/progress',
      params: {
        progressToken: progressToken as string | number,
        progress,
        ...(line.total !== undefined ? { total: line.total } : {}),
        message: scrub(line.message),
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
