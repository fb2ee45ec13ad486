import { ERROR_CODES, isLiftError } from '../contract/errors.js';
import { firstPositional, UsageError } from './args.js';
import type { CommandSpec } from './spec.js';

/** What `lift … --json` prints when the command could not give its result. */
export interface JsonError {
  ok: false;
  error: { code: string; message: string; hint?: string };
}

/**
 * Whether lift itself was asked for JSON: `--json` among lift's own flags, not among a
 * program's (`lift exec -- jq --json`, or after the program of a pass-through command).
 */
export function asksForJson(args: string[], spec: CommandSpec | undefined): boolean {
  const end = args.indexOf('--');
  const own = end >= 0 ? args.slice(0, end) : args;
  const until = spec?.passThrough ? firstPositional(own, spec.options) : -1;
  return (until >= 0 ? own.slice(0, until) : own).includes('--json');
}

/**
 * A usage mistake or a Lift refusal as JSON, so that a script that asked for JSON can read
 * every answer the same way. Usage errors are BAD_INPUT unless their text names another code
 * (`BAD_INPUT: --deadline takes …`, `POLICY_BLOCKED: …`); anything else (a bug) is not
 * dressed up and stays text.
 */
export function jsonError(error: unknown, command: string): JsonError | undefined {
  if (isLiftError(error)) {
    return {
      ok: false,
      error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) },
    };
  }
  if (!(error instanceof UsageError)) return undefined;
  let text = error.message;
  let hint = `lift ${command} --help shows its flags and examples.`;
  const hintAt = text.indexOf('\nhint: ');
  if (hintAt >= 0) {
    hint = text.slice(hintAt + '\nhint: '.length);
    text = text.slice(0, hintAt);
  }
  const named = /^([A-Z][A-Z_]+): /.exec(text);
  const code = named?.[1] && Object.hasOwn(ERROR_CODES, named[1]) ? named[1] : 'BAD_INPUT';
  if (named && code === named[1]) text = text.slice(named[0].length);
  return { ok: false, error: { code, message: text, hint } };
}
