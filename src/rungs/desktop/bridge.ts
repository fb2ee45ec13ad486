import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type ErrorCode, LiftError } from '../../contract/errors.js';

/** Debian's Python, where python3-gi lives (the `python3` on PATH may be another one). */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/** The worker script sits next to this module in src/; from dist/ it is found in the source tree. */
function bridgeScript(): string {
  const candidates = [
    fileURLToPath(new URL('./atspi/main.py', import.meta.url)),
    fileURLToPath(new URL('../../../src/rungs/desktop/atspi/main.py', import.meta.url)),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found)
    throw new LiftError('INTERNAL_ERROR', `The AT-SPI bridge is missing (${candidates.join(', ')}).`);
  return found;
}

/** How the worker's error kinds read as Lift's codes. */
const ERROR_KINDS: Record<string, { code: ErrorCode; hint: string }> = {
  timeout: {
    code: 'TIMEOUT',
    hint: 'The program did not answer the accessibility bus in time; observe the window again.',
  },
  call_failed: {
    code: 'SURFACE_CHANGED',
    hint: 'The control is gone or changed (the window was rebuilt). Observe the window again and use the new names.',
  },
  no_action: { code: 'NO_CHANGE', hint: 'The control offers no action; choose another control or op.' },
  bad_key: {
    code: 'BAD_INPUT',
    hint: 'Use key names such as enter, tab, escape, ctrl, shift, alt, f5 or a letter.',
  },
  no_display: { code: 'PROGRAM_FAILED', hint: 'The desktop display is not running; start a new session.' },
  bad_request: {
    code: 'INTERNAL_ERROR',
    hint: 'Lift sent the bridge a request it does not know; this is a bug.',
  },
  bridge_bug: {
    code: 'INTERNAL_ERROR',
    hint: 'The AT-SPI bridge failed; this is a bug. The run log has details.',
  },
};

/** What the bridge says one request cost it: milliseconds per phase and the D-Bus calls it sent. */
export interface BridgeTiming {
  ms: number;
  calls: number;
  [phase: string]: number;
}

/** Where one request's time went, end to end, as seen from Node. */
export interface RequestTiming {
  op: string;
  /** From writing the request to resolving its answer. */
  roundTripMs: number;
  /** The request's time inside the bridge; the rest is the pipes, JSON and both event loops. */
  bridge: BridgeTiming | undefined;
  requestBytes: number;
  answerBytes: number;
  /** Node's JSON.stringify of the request and JSON.parse of the answer. */
  jsonMs: number;
}

interface Answer {
  id?: number;
  ok?: boolean;
  ready?: boolean;
  result?: unknown;
  message?: string;
  error?: { kind: string; message: string };
  timing?: BridgeTiming;
}

interface Waiting {
  id: number;
  op: string;
  sentAt: number;
  requestBytes: number;
  stringifyMs: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

/**
 * The AT-SPI worker: /usr/bin/python3 running atspi/main.py on the session's buses, one request
 * at a time, each with a deadline. A worker that misses a deadline is ended (it may be stuck
 * in a program that stopped answering) and a dead worker is started again on the next request.
 */
export class AtspiBridge {
  readonly #env: Record<string, string>;
  readonly #python: string;
  #worker: Promise<ChildProcess> | undefined;
  #waiting: Waiting | undefined;
  #tail: Promise<unknown> = Promise.resolve();
  #nextId = 1;
  #stderr = '';
  #closed = false;
  /** Workers started so far (1, plus one per restart). */
  starts = 0;
  /** Told where each answered request's time went (the desktop bench listens). */
  onTiming: ((timing: RequestTiming) => void) | undefined;

  constructor(env: Record<string, string>, python = DEBIAN_PYTHON) {
    this.#env = env;
    this.#python = python;
  }

  /** Sends one request; the answer's `result`, or a LiftError. Requests run in call order. */
  request<T>(op: string, args: Record<string, unknown>, withinMs: number): Promise<T> {
    const run = () => this.#send(op, args, withinMs) as Promise<T>;
    const next = this.#tail.then(run, run);
    this.#tail = next.catch(() => undefined);
    return next;
  }

  async #send(op: string, args: Record<string, unknown>, withinMs: number): Promise<unknown> {
    if (this.#closed) throw new LiftError('INTERNAL_ERROR', 'The AT-SPI bridge was closed.');
    const worker = await this.#current();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting = undefined;
        this.#discard();
        reject(
          new LiftError('TIMEOUT', `The AT-SPI bridge did not answer ${op} within ${withinMs} ms.`, {
            hint: 'The program may be busy or hung; the bridge was restarted. Observe the window before acting again.',
          }),
        );
      }, withinMs + 500);
      const stringifyStarted = performance.now();
      const line = `${JSON.stringify({ ...args, id, op, deadline_ms: withinMs })}\n`;
      const sentAt = performance.now();
      this.#waiting = {
        id,
        op,
        sentAt,
        requestBytes: line.length,
        stringifyMs: sentAt - stringifyStarted,
        resolve,
        reject,
        timer,
      };
      worker.stdin?.write(line);
    });
  }

  #current(): Promise<ChildProcess> {
    if (!this.#worker) {
      this.starts += 1;
      this.#worker = this.#start();
      this.#worker.catch(() => {
        this.#worker = undefined;
      });
    }
    return this.#worker;
  }

  #start(): Promise<ChildProcess> {
    // -B: the worker's modules are imported from the package; it writes no .pyc files beside them.
    const worker = spawn(this.#python, ['-B', bridgeScript()], {
      env: this.#env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    worker.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-2000);
    });
    return new Promise((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(() => {
        this.#kill(worker);
        reject(this.#failure('The AT-SPI bridge did not start within 15 seconds.'));
      }, 15_000);
      createInterface({ input: worker.stdout! }).on('line', (line) => {
        let answer: Answer;
        const parseStarted = performance.now();
        try {
          answer = JSON.parse(line) as Answer;
        } catch {
          return; // a library's warning on stdout: not an answer
        }
        const parseMs = performance.now() - parseStarted;
        if (!ready) {
          ready = true;
          clearTimeout(timer);
          if (answer.ready) resolve(worker);
          else reject(this.#failure(`The AT-SPI bridge could not start: ${answer.message ?? 'no reason'}.`));
          return;
        }
        this.#answer(answer, line.length, parseMs);
      });
      worker.on('error', (error) => {
        clearTimeout(timer);
        reject(this.#failure(`${this.#python} could not start: ${error.message}.`));
      });
      worker.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (this.#worker && !ready) reject(this.#failure(`The AT-SPI bridge exited (${signal ?? code}).`));
        this.#worker = undefined;
        const waiting = this.#waiting;
        this.#waiting = undefined;
        if (waiting) {
          clearTimeout(waiting.timer);
          waiting.reject(this.#failure(`The AT-SPI bridge exited (${signal ?? `code ${code}`}).`));
        }
      });
    });
  }

  #answer(answer: Answer, answerBytes: number, parseMs: number): void {
    const waiting = this.#waiting;
    if (!waiting || answer.id !== waiting.id) return; // the late answer of a request given up on
    this.#waiting = undefined;
    clearTimeout(waiting.timer);
    this.onTiming?.({
      op: waiting.op,
      roundTripMs: performance.now() - waiting.sentAt,
      bridge: answer.timing,
      requestBytes: waiting.requestBytes,
      answerBytes,
      jsonMs: waiting.stringifyMs + parseMs,
    });
    if (answer.ok) {
      waiting.resolve(answer.result);
      return;
    }
    const kind = answer.error?.kind ?? 'bridge_bug';
    const known = ERROR_KINDS[kind] ?? ERROR_KINDS.bridge_bug!;
    waiting.reject(
      new LiftError(known.code, answer.error?.message ?? 'The bridge failed.', { hint: known.hint }),
    );
  }

  #failure(message: string): LiftError {
    return new LiftError('PROGRAM_FAILED', message, {
      hint: `Check that python3-gi and at-spi2-core are installed (bash scripts/setup.sh desktop). Its error output: ${this.#stderr.slice(-600) || '(none)'}`,
    });
  }

  #discard(): void {
    const current = this.#worker;
    this.#worker = undefined;
    void current?.then(
      (worker) => this.#kill(worker),
      () => undefined,
    );
  }

  #kill(worker: ChildProcess): void {
    if (worker.pid === undefined) return;
    try {
      process.kill(-worker.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  /** The worker's process id while one runs (tests end it to prove a restart). */
  async pid(): Promise<number | undefined> {
    const worker = await this.#worker?.catch(() => undefined);
    return worker?.pid;
  }

  close(): void {
    this.#closed = true;
    this.#discard();
  }
}
