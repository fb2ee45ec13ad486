import { LiftError } from '../../contract/errors.js';
import { runWrapped } from '../../rungs/cli/run-wrapped.js';
import type { HledgerSettings } from './settings.js';

export interface HledgerRun {
  deadline: number;
  signal: AbortSignal;
  /** Set once this call has written the journal: a read that times out then leaves the outcome unknown. */
  settleAfterWrite?: string;
}

/** The most JSON a report may print before the read is refused as too large to parse whole. */
const OUTPUT_CAP = 16 * 1024 * 1024;

/**
 * Runs hledger through the command-line rung (no terminal, closed input, one deadline) with
 * fixed arguments and returns its standard output. A journal hledger cannot read (a manual
 * edit broke it) is SURFACE_CHANGED carrying hledger's own error.
 */
export async function runHledger(
  settings: HledgerSettings,
  args: readonly string[],
  run: HledgerRun,
): Promise<string> {
  const program = settings.program ?? 'hledger';
  const result = await runWrapped({
    program,
    args: ['-f', settings.journal, ...args],
    deadline: run.deadline,
    signal: run.signal,
    input: '',
    cap: OUTPUT_CAP,
    // hledger only reads; whether the call's outcome is known depends on the write before it.
    ...(run.settleAfterWrite
      ? { effectStarts: 'spawn' as const, settle: run.settleAfterWrite }
      : { effectStarts: 'confirmation' as const }),
    // hledger exits 1 for every complaint about the journal; this tool reads the complaint itself.
    exitCodes: { 1: 'ok' },
  });
  if (result.exitCode !== 0) throw journalError(settings, result.stderr.text || result.stdout.text);
  if (result.stdout.truncated) {
    throw new LiftError('SURFACE_CHANGED', `hledger printed more than ${OUTPUT_CAP} bytes for one report.`, {
      hint: 'Narrow the report (fewer accounts, a depth).',
    });
  }
  return result.stdout.text;
}

/** hledger's own complaint about the journal, as a SURFACE_CHANGED the person who edited it can act on. */
export function journalError(settings: HledgerSettings, stderr: string): LiftError {
  const text = stderr.trim().slice(0, 1_500);
  const firstLine = text.split('\n')[0] ?? text;
  return new LiftError('SURFACE_CHANGED', `hledger cannot read ${settings.journal}: ${text}`, {
    hint: `The journal no longer parses (${firstLine}). A person must fix the journal at the place hledger names; nothing was written.`,
    outcome: 'not_started',
    details: { journal: settings.journal, hledger_error: text },
  });
}
