import { RecentText } from './capture.js';
import { inputWait } from './input-wait.js';
import { type ProcessStat, processTree, readStat } from './processes.js';
import { lastLine, looksLikeQuestion, partialLine } from './questions.js';

/** Silence after a question-like partial line before it counts as a prompt. */
const QUESTION_SILENCE_MS = 60;
/**
 * Silence after any other partial line before the watch asks whether an event loop waits on
 * standard input (readline, asyncio): such a line then counts as a prompt.
 */
const EVENT_LOOP_SILENCE_MS = 500;

/**
 * Decides, one look at a time, whether a call's program waits for a person: a blocking read
 * of standard input, an event loop waiting on it under a partial line that stands still, or a
 * question-like partial line while it polls. Also records every process of the tree it sees,
 * for the end of the call.
 */
export class QuestionWatch {
  readonly seen = new Map<number, ProcessStat>();
  readonly #recent = new RecentText();
  #lastOutputAt = Date.now();
  /** False right after an answer, until the program prints again: the old question is not a new one. */
  #outputSinceAnswer = true;
  #readingTicks = 0;
  #waitingTicks = 0;

  printed(chunk: Buffer): void {
    this.#recent.push(chunk);
    this.#lastOutputAt = Date.now();
    this.#outputSinceAnswer = true;
  }

  answered(): void {
    this.#outputSinceAnswer = false;
  }

  /**
   * Looks at every process under `rootPid`; returns the question when one is asked (an empty
   * string when the program reads without printing one). `stdin` is the program's end of the
   * wrapper's input, or undefined when the input is not watched (the tool wrote and closed it).
   */
  look(rootPid: number, stdin: string | undefined): string | undefined {
    const partial = partialLine(this.#recent.text);
    const quietMs = Date.now() - this.#lastOutputAt;
    const fresh = this.#outputSinceAnswer && partial.trim() !== '';
    // What an event loop waits on costs more reads: asked only once a partial line stood still.
    const deep = fresh && quietMs >= EVENT_LOOP_SILENCE_MS;
    let reading = false;
    let polling = false;
    let waiting = false;
    for (const member of processTree(rootPid)) {
      if (!this.seen.has(member)) {
        const stat = readStat(member);
        if (stat) this.seen.set(member, stat);
      }
      if (stdin === undefined) continue;
      const wait = inputWait(member, stdin, deep);
      reading ||= wait === 'reading';
      polling ||= wait === 'polling';
      waiting ||= wait === 'waiting' || wait === 'polling';
    }
    // Two looks in a row, so the question printed just before the read has arrived.
    this.#readingTicks = reading ? this.#readingTicks + 1 : 0;
    const asking =
      polling || (waiting && fresh && quietMs >= QUESTION_SILENCE_MS && looksLikeQuestion(partial));
    this.#waitingTicks = asking ? this.#waitingTicks + 1 : 0;
    if (this.#readingTicks < 2 && this.#waitingTicks < 2) return undefined;
    const question = this.#readingTicks >= 2 ? lastLine(this.#recent.text) : partial.trim();
    this.#readingTicks = 0;
    this.#waitingTicks = 0;
    return question;
  }
}
