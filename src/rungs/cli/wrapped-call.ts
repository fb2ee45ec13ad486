import type { CapturedStream } from './capture.js';
import type { ExitRules } from './exit-status.js';
import type { Confirmation } from './questions.js';

/** Default bytes kept of each stream (half head, half tail). */
export const DEFAULT_STREAM_CAP = 64 * 1024;

/** One call of runWrapped: the program, its fixed arguments, and the rules of its contract. */
export interface WrappedCall extends ExitRules {
  program: string;
  /** Fixed arguments from code plus validated inputs; never a shell line. */
  args?: readonly string[];
  cwd?: string;
  /** Epoch milliseconds by which the call has returned, whatever the program does. */
  deadline: number;
  signal?: AbortSignal | undefined;
  /** Settings and credentials (read from the secret store by the tool) on top of the quiet environment. */
  env?: Record<string, string>;
  path?: string | undefined;
  home?: string | undefined;
  /** Written to standard input, which is then closed. Without it, standard input stays open and watched. */
  input?: string;
  /** Known confirmations, answered once each, and only when `approved`. */
  confirmations?: readonly Confirmation[];
  approved?: boolean;
  /** Bytes kept of each output stream. */
  cap?: number;
  /** Characters of each stream's tail an error carries in its details (default 1,000). */
  detailChars?: number;
  /**
   * When an effect may begin: as soon as the program runs (the default), or only once a
   * confirmation is answered ('confirmation' with none given: a program that only reads). Then
   * a call of a tool that is not a read is marked started (contract/effect-scope.ts).
   */
  effectStarts?: 'spawn' | 'confirmation';
  /** Also called when an effect may have begun. */
  onStarted?: () => void;
  /** The read that settles an unknown outcome, for TIMEOUT errors. */
  settle?: string;
}

export interface WrappedResult {
  /** The program's pid, which is also its process group and session id. */
  pid: number;
  exitCode: number;
  stdout: CapturedStream;
  stderr: CapturedStream;
  durationMs: number;
  /** The questions the wrapper answered, in order. */
  answered: string[];
  /** Processes that outlived the program holding its streams or its group, and were killed. */
  leftoversKilled: number;
}
