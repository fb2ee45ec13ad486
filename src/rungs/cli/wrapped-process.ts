import { type ChildProcess, spawn } from 'node:child_process';
import { MAX_DEADLINE_MS } from '../../contract/duration.js';
import { effectMayHaveBegun } from '../../contract/effect-scope.js';
import { LiftError } from '../../contract/errors.js';
import { setupLineFor } from '../../contract/setup-groups.js';
import { CallCgroup } from './call-cgroup.js';
import { CallMark } from './call-mark.js';
import { StreamCapture } from './capture.js';
import { DEFAULT_PATH, quietEnvironment } from './environment.js';
import { judgeExit, tail } from './exit-status.js';
import { Ownership } from './ownership.js';
import { fdTarget, isLive, peerSocket, readStat } from './processes.js';
import { resolveProgram } from './program-path.js';
import { QuestionWatch } from './question-watch.js';
import { classifyQuestion } from './questions.js';
import { TERM_GRACE_MS, terminate } from './terminate.js';
import { DEFAULT_STREAM_CAP, type WrappedCall, type WrappedResult } from './wrapped-call.js';

/** How often the wrapper looks at what the program is doing. */
const WATCH_MS = 20;
/** How long a program's descendants may keep its streams open after it exited. */
const LEFTOVER_GRACE_MS = 200;

type Stop = { kind: 'exit' } | { kind: 'error'; error: LiftError };

/** The machinery of runWrapped (run-wrapped.ts), loaded by the first program a call runs. */
export function runWrapped(call: WrappedCall): Promise<WrappedResult> {
  if (!(call.deadline - Date.now() <= MAX_DEADLINE_MS)) {
    return Promise.reject(
      new LiftError('BAD_INPUT', `${call.program} was not started: its deadline is not within a day.`, {
        hint: `Give a deadline (epoch milliseconds) at most ${MAX_DEADLINE_MS} ms from now.`,
        outcome: 'not_started',
      }),
    );
  }
  const nul = nulByteIn(call);
  if (nul) {
    // The kernel takes arguments and environment as C strings: spawn would throw a TypeError.
    return Promise.reject(
      new LiftError('BAD_INPUT', `${call.program} was not started: ${nul} holds a NUL byte.`, {
        hint: 'No program can receive a NUL byte in an argument or the environment; remove it from the input.',
        outcome: 'not_started',
      }),
    );
  }
  if (Date.now() >= call.deadline || call.signal?.aborted) {
    return Promise.reject(
      new LiftError('TIMEOUT', `${call.program} was not started: the deadline had already passed.`, {
        outcome: 'not_started',
      }),
    );
  }
  const cgroup = CallCgroup.create();
  if (!cgroup)
    return new Wrapped(call, undefined, { program: call.program, args: [...(call.args ?? [])] }).done;
  // The helper shell would answer a missing program with exit status 127: find it first, as spawn would.
  const found = resolveProgram(call.program, call.path ?? DEFAULT_PATH, call.cwd ?? process.cwd());
  if (!found.ok) {
    cgroup.remove();
    return Promise.reject(notStarted(call.program, found.code));
  }
  return new Wrapped(call, cgroup, cgroup.command(found.path, call.args ?? [])).done;
}

function notStarted(program: string, code: string, cause?: Error): LiftError {
  const install = code === 'ENOENT' ? setupLineFor(program) : undefined;
  return new LiftError('PROGRAM_FAILED', `${program} could not be started: ${code}.`, {
    hint: install
      ? `${program} is not installed here; install it with ${install}.`
      : `Check that ${program} is installed and on the path.`,
    outcome: 'not_started',
    ...(cause ? { cause } : {}),
  });
}

/** Which argument or variable of the call holds a NUL byte, if one does (never its value). */
function nulByteIn(call: WrappedCall): string | undefined {
  if (call.program.includes('\0')) return 'the program name';
  const at = (call.args ?? []).findIndex((arg) => arg.includes('\0'));
  if (at >= 0) return `argument ${at + 1}`;
  const variable = Object.entries(call.env ?? {}).find(
    ([name, value]) => name.includes('\0') || value.includes('\0'),
  );
  if (variable) return `the environment variable ${variable[0].replaceAll('\0', '\\0')}`;
  if (call.cwd?.includes('\0')) return 'the working folder';
  return undefined;
}

class Wrapped {
  readonly done: Promise<WrappedResult>;
  readonly #call: WrappedCall;
  readonly #t0 = performance.now();
  readonly #child: ChildProcess;
  readonly #stdout: StreamCapture;
  readonly #stderr: StreamCapture;
  readonly #questions = new QuestionWatch();
  /** Decides, for every signal, that the process is not older than the call, Lift or PID 1. */
  readonly #owner = new Ownership();
  /** Where the machine allows it, every process of the call lives here, whatever it does. */
  readonly #cgroup: CallCgroup | undefined;
  /** Inherited by every descendant, so that none escapes the end of the call (where no cgroup holds them). */
  readonly #mark = new CallMark();
  /** The program's ends of the wrapper's socket pairs, found from the wrapper's own ends when needed. */
  readonly #pipes = new Set<string>();
  readonly #answered: string[] = [];
  readonly #answeredIndexes = new Set<number>();
  #stdinTarget: string | undefined;
  #started = false;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #openStreams = 2;
  #stopping = false;
  #timers: NodeJS.Timeout[] = [];
  #watch: NodeJS.Timeout | undefined;
  #resolve!: (result: WrappedResult) => void;
  #reject!: (error: unknown) => void;

  constructor(
    call: WrappedCall,
    cgroup: CallCgroup | undefined,
    command: { program: string; args: string[] },
  ) {
    this.#call = call;
    this.#cgroup = cgroup;
    const cap = call.cap ?? DEFAULT_STREAM_CAP;
    this.#stdout = new StreamCapture(cap);
    this.#stderr = new StreamCapture(cap);
    this.done = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.#child = spawn(command.program, command.args, {
      ...(call.cwd ? { cwd: call.cwd } : {}),
      env: {
        ...quietEnvironment({ path: call.path, home: call.home, extra: call.env }),
        ...this.#mark.environment,
      },
      // A new session: no controlling terminal, so opening /dev/tty fails at once.
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.#attach();
  }

  #attach(): void {
    const child = this.#child;
    const call = this.#call;
    child.once('error', (error: NodeJS.ErrnoException) => {
      void this.#stop({ kind: 'error', error: notStarted(call.program, error.code ?? error.message, error) });
    });
    if (child.pid === undefined) return;
    // Only for the prompt watch: a program that already replaced its input (a shell's `exec </dev/null`) is not watched.
    const stdin = fdTarget(child.pid, 0);
    if (stdin && /^socket:\[\d+\]$/.test(stdin)) this.#stdinTarget = stdin;
    if ((call.effectStarts ?? 'spawn') === 'spawn') this.#markStarted();
    child.stdin?.on('error', () => {
      // The program closed its input early; that is its business.
    });
    if (call.input !== undefined) child.stdin?.end(call.input);
    for (const [stream, capture] of [
      [child.stdout, this.#stdout],
      [child.stderr, this.#stderr],
    ] as const) {
      stream?.on('data', (chunk: Buffer) => {
        capture.push(chunk);
        this.#questions.printed(chunk);
      });
      stream?.once('close', () => this.#streamClosed());
    }
    child.once('exit', (code, signal) => this.#exited(code, signal));
    const killAt = Math.max(Date.now(), call.deadline - TERM_GRACE_MS - 150);
    this.#timers.push(setTimeout(() => this.#timedOut(), killAt - Date.now()));
    call.signal?.addEventListener('abort', this.#aborted, { once: true });
    this.#watch = setInterval(() => this.#look(), WATCH_MS);
  }

  #markStarted(): void {
    if (this.#started) return;
    this.#started = true;
    this.#call.onStarted?.();
    effectMayHaveBegun();
  }

  readonly #aborted = () => {
    const reason = this.#call.signal?.reason;
    const error =
      reason instanceof LiftError
        ? reason
        : new LiftError('CANCELLED', `${this.#call.program} was cancelled by the caller.`);
    void this.#stop({ kind: 'error', error: this.#withOutcome(error) });
  };

  #withOutcome(error: LiftError): LiftError {
    return new LiftError(error.code, error.message, {
      outcome: this.#started ? 'unknown' : 'not_started',
      ...(this.#started && this.#call.settle ? { settle: this.#call.settle } : {}),
      details: this.#details(),
    });
  }

  #timedOut(): void {
    const seconds = Math.round((performance.now() - this.#t0) / 100) / 10;
    const error = new LiftError(
      'TIMEOUT',
      `${this.#call.program} did not finish within its deadline (${seconds} s); it was killed.`,
    );
    void this.#stop({ kind: 'error', error: this.#withOutcome(error) });
  }

  /** Watches every process of the call: is any of them waiting for a person? */
  #look(): void {
    const pid = this.#child.pid;
    if (pid === undefined || this.#exit || this.#stopping) return;
    this.#mark.observe();
    this.#cgroup?.confirm(pid);
    const question = this.#questions.look(
      pid,
      this.#call.input === undefined ? this.#stdinTarget : undefined,
    );
    if (question !== undefined) this.#question(question);
  }

  #question(question: string): void {
    const call = this.#call;
    const shown = question || '(nothing printed; the program reads its standard input)';
    const verdict = classifyQuestion(question, call.confirmations ?? []);
    if (verdict.kind === 'credential') {
      void this.#stop({
        kind: 'error',
        error: new LiftError('AUTH_REQUIRED', `${call.program} asked for a credential; it was stopped.`, {
          hint: 'A person must store the credential in the secret store; the tool passes it to the program. The model cannot supply it.',
          outcome: this.#started ? 'unknown' : 'not_started',
          // The output around a credential prompt stays out of the envelope: it never reaches a model.
          details: { program: call.program, pid: this.#child.pid, question: 'credential prompt (withheld)' },
        }),
      });
      return;
    }
    if (verdict.kind === 'confirmation' && call.approved && !this.#answeredIndexes.has(verdict.index)) {
      this.#answeredIndexes.add(verdict.index);
      this.#answered.push(question);
      this.#questions.answered();
      this.#child.stdin?.write(`${verdict.confirmation.answer}\n`);
      this.#markStarted();
      return;
    }
    const why =
      verdict.kind === 'unexpected'
        ? `${call.program} asked a question the tool does not know: ${shown}`
        : this.#answeredIndexes.has(verdict.index)
          ? `${call.program} asked a known confirmation a second time; it is answered once only: ${shown}`
          : `${call.program} asked a known confirmation, but this call was not approved by its gate: ${shown}`;
    void this.#stop({
      kind: 'error',
      error: new LiftError('PROMPT_UNEXPECTED', why, {
        hint: `The program asked: "${shown}". Pass the answer as an argument or setting, or add it to the contract's confirmations.`,
        outcome: this.#started ? 'unknown' : 'not_started',
        details: { ...this.#details(), question: shown },
      }),
    });
  }

  #exited(code: number | null, signal: NodeJS.Signals | null): void {
    this.#exit = { code, signal };
    if (this.#openStreams === 0) void this.#stop({ kind: 'exit' });
    else this.#timers.push(setTimeout(() => void this.#stop({ kind: 'exit' }), LEFTOVER_GRACE_MS));
  }

  #streamClosed(): void {
    this.#openStreams -= 1;
    if (this.#openStreams === 0 && this.#exit) void this.#stop({ kind: 'exit' });
  }

  #details(): Record<string, unknown> {
    const stdout = this.#stdout.result();
    const stderr = this.#stderr.result();
    return {
      program: this.#call.program,
      ...(this.#child.pid !== undefined ? { pid: this.#child.pid } : {}),
      ...(this.#exit?.code !== undefined && this.#exit.code !== null ? { exit_code: this.#exit.code } : {}),
      ...(this.#exit?.signal ? { signal: this.#exit.signal } : {}),
      stdout_tail: tail(stdout.text, this.#call.detailChars ?? 1_000),
      stderr_tail: tail(stderr.text, this.#call.detailChars ?? 1_000),
      stdout_bytes: stdout.bytes,
      stderr_bytes: stderr.bytes,
      duration_ms: Math.round(performance.now() - this.#t0),
      ...(this.#answered.length > 0 ? { answered: this.#answered } : {}),
    };
  }

  /** One way out: stop watching, end every process of the call, close the streams, settle. */
  async #stop(stop: Stop): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    clearInterval(this.#watch);
    for (const timer of this.#timers) clearTimeout(timer);
    this.#call.signal?.removeEventListener('abort', this.#aborted);
    const pgid = this.#child.pid;
    let leftovers = 0;
    // In a cgroup the kernel lists every process of the call; elsewhere daemons that left the
    // session and closed their streams are found by the call's mark.
    const cgroup = this.#cgroup?.confirm(pgid) ? this.#cgroup : undefined;
    const marked = cgroup ? [] : this.#mark.holders();
    const linger = this.#openStreams > 0 || marked.length > 0 || (cgroup?.members().length ?? 0) > 0;
    if (pgid !== undefined && (stop.kind === 'error' || linger || groupAlive(pgid))) {
      if (this.#openStreams > 0) this.#findPipesFromOurEnds();
      const seen = [...this.#questions.seen.values(), ...marked.map(readStat).filter(isLive)];
      const ended = await terminate(
        {
          pgid,
          seen,
          pipes: this.#pipes,
          cgroup,
          owner: this.#owner,
          ...(cgroup ? {} : { marked: () => this.#mark.holders() }),
        },
        TERM_GRACE_MS,
      );
      leftovers = ended.found;
    }
    this.#cgroup?.remove();
    for (const stream of [this.#child.stdin, this.#child.stdout, this.#child.stderr]) stream?.destroy();
    if (stop.kind === 'error') {
      this.#reject(stop.error);
      return;
    }
    this.#finish(leftovers);
  }

  #findPipesFromOurEnds(): void {
    for (const stream of [this.#child.stdin, this.#child.stdout, this.#child.stderr]) {
      const fd = (stream as unknown as { _handle?: { fd?: number } } | null)?._handle?.fd;
      const peer = fd === undefined ? undefined : peerSocket(fd);
      if (peer) this.#pipes.add(peer);
    }
  }

  #finish(leftoversKilled: number): void {
    const exit = this.#exit ?? { code: null, signal: null };
    const stdout = this.#stdout.result();
    const stderr = this.#stderr.result();
    try {
      judgeExit(
        {
          program: this.#call.program,
          exitCode: exit.code,
          signal: exit.signal,
          stdout,
          stderr,
          started: this.#started,
          details: this.#details(),
        },
        this.#call,
      );
    } catch (error) {
      this.#reject(error);
      return;
    }
    this.#resolve({
      pid: this.#child.pid ?? 0,
      exitCode: exit.code ?? 0,
      stdout,
      stderr,
      durationMs: Math.round((performance.now() - this.#t0) * 100) / 100,
      answered: this.#answered,
      leftoversKilled,
    });
  }
}

/** Whether any process of the group is still there (one system call). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
