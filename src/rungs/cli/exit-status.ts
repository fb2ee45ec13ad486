import { type ErrorCode, LiftError, type Outcome } from '../../contract/errors.js';
import type { TextPattern } from '../../contract/pattern.js';
import type { CapturedStream } from './capture.js';
import { lastLine } from './questions.js';

/** What one exit status means: success, or a stable error with its message and hint. */
export type ExitMeaning = 'ok' | { code: ErrorCode; message: string; hint?: string; outcome?: Outcome };

/** A rule read from the error stream, for programs that use one status for many failures. */
export interface ErrorPattern {
  /** A RegExp in the tool's code, or a pattern from outside compiled by linearPattern. */
  pattern: TextPattern;
  code: ErrorCode;
  message: string;
  hint?: string;
  /** Whether the failure proves nothing happened; defaults from the call (AUTH_REQUIRED: not_started). */
  outcome?: Outcome;
}

export interface ExitRules {
  exitCodes?: Readonly<Record<number, ExitMeaning>> | undefined;
  errorPatterns?: readonly ErrorPattern[] | undefined;
}

const STDERR_TAIL = 600;

export function tail(text: string, size = STDERR_TAIL): string {
  const trimmed = text.trimEnd();
  return trimmed.length > size ? `…${trimmed.slice(-size)}` : trimmed;
}

export interface Ending {
  program: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: CapturedStream;
  stderr: CapturedStream;
  /** Whether something may have reached the system (for the outcome of a failure). */
  started: boolean;
  details: Record<string, unknown>;
}

/**
 * Turns an exit status into success or a stable error code. A listed status gets its
 * contract error; an unlisted non-zero status is PROGRAM_FAILED with the error stream's tail.
 */
export function judgeExit(ending: Ending, rules: ExitRules): void {
  if (ending.exitCode === 0 && ending.signal === null) return;
  const meaning = ending.exitCode === null ? undefined : rules.exitCodes?.[ending.exitCode];
  if (meaning === 'ok') return;
  const errorText = ending.stderr.text || ending.stdout.text;
  const outcome: Outcome = ending.started ? 'unknown' : 'not_started';
  const matched = rules.errorPatterns?.find((rule) => rule.pattern.test(errorText));
  const listed = matched ?? meaning;
  if (listed) {
    // The program's own words: the line the rule matched, or the last line of its error output.
    const line =
      (matched && errorText.split('\n').find((text) => matched.pattern.test(text))) || lastLine(errorText);
    const said = line ? ` (${ending.program}: ${tail(line.trim(), 300)})` : '';
    throw new LiftError(listed.code, `${listed.message}${said}`, {
      ...(listed.hint ? { hint: listed.hint } : {}),
      outcome: listed.outcome ?? (listed.code === 'AUTH_REQUIRED' ? 'not_started' : outcome),
      details: ending.details,
    });
  }
  const how = ending.signal ? `was killed by ${ending.signal}` : `exited with status ${ending.exitCode}`;
  const stderrTail = tail(errorText);
  throw new LiftError(
    'PROGRAM_FAILED',
    `${ending.program} ${how}: ${lastLine(stderrTail) || '(no error output)'}`,
    {
      hint: stderrTail
        ? `Error output (tail): ${stderrTail}`
        : `${ending.program} ${how} and printed nothing on its error stream.`,
      outcome,
      details: ending.details,
    },
  );
}
