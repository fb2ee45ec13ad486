import { describeEvent, ProgressWords } from '../serve/event-words.js';
import type { RunEvent } from '../store/runs.js';
import type { CliIo } from './io.js';

/** After this long with nothing heard, a line says the call is still at it (and again as long). */
const STILL_WORKING_MS = 3_000;

export interface CallProgress {
  /** For invoke's `onEvent`; undefined when nobody is listening, so the call costs nothing more. */
  onEvent: ((event: RunEvent) => void) | undefined;
  /** The call answered: no more lines. */
  end(): void;
}

/**
 * What a command says on stderr while a tool runs, so a long call is never silent: at a
 * terminal, one line per step the run log records (the words MCP progress uses) and a line
 * when nothing was heard for a while; with LIFT_LOG=debug, every event, terminal or not.
 * Otherwise nothing: stdout carries the envelope alone either way. Events arrive before the
 * run log scrubs them, so each line goes through `scrub`.
 */
export function callProgress(io: CliIo, tool: string, scrub: (text: string) => string): CallProgress {
  const debug = io.env.LIFT_LOG === 'debug';
  if (!debug && !io.errIsTerminal) return { onEvent: undefined, end: () => {} };
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  const say = (text: string) =>
    io.err(
      debug
        ? `lift debug ${(performance.now() / 1000).toFixed(3)} s  ${tool}: ${text}`
        : `${tool} ${seconds()} s  ${text}`,
    );
  const words = new ProgressWords();
  let last = 'starting';
  const still = setInterval(() => say(`still running (last: ${last})`), STILL_WORKING_MS);
  still.unref();
  return {
    onEvent: (event) => {
      if (debug) {
        last = event.type;
        still.refresh();
        say(scrub(describeEvent(event)));
        return;
      }
      // The person just started the call: its start goes unsaid, like the stages of a blink.
      const line = event.type === 'call-start' ? undefined : words.say(event);
      if (!line) return;
      last = scrub(line.message);
      still.refresh();
      say(last);
    },
    end: () => clearInterval(still),
  };
}
