import { execFile } from 'node:child_process';
import { LiftError } from '../../contract/errors.js';
import type { HledgerSettings } from './settings.js';

export interface HledgerRun {
  deadline: number;
  signal: AbortSignal;
}

/**
 * Runs hledger with fixed arguments and returns its standard output. A journal hledger
 * cannot read (a manual edit broke it) is SURFACE_CHANGED carrying hledger's own error.
 *
 * TEMPORARY: child_process under the deadline, until the command-line rung's runWrapped lands.
 */
export function runHledger(
  settings: HledgerSettings,
  args: readonly string[],
  run: HledgerRun,
): Promise<string> {
  const program = settings.program ?? 'hledger';
  const timeout = run.deadline - Date.now();
  if (timeout <= 0) {
    return Promise.reject(
      new LiftError('TIMEOUT', `${program} was not started: the deadline had passed.`, {
        outcome: 'not_started',
      }),
    );
  }
  return new Promise((resolve, reject) => {
    execFile(
      program,
      ['-f', settings.journal, ...args],
      {
        timeout,
        killSignal: 'SIGKILL',
        signal: run.signal,
        maxBuffer: 32 * 1024 * 1024,
        env: { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8', HOME: '/nonexistent', NO_COLOR: '1' },
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const failure = error as NodeJS.ErrnoException & { code?: string | number; killed?: boolean };
        if (failure.killed || failure.name === 'AbortError') {
          return reject(new LiftError('TIMEOUT', `${program} ran out of time.`, { outcome: 'not_started' }));
        }
        if (failure.code === 'ENOENT') {
          return reject(
            new LiftError('PROGRAM_FAILED', `${program} is not installed.`, {
              hint: 'Install hledger (Debian package hledger).',
            }),
          );
        }
        reject(journalError(settings, stderr || String(error.message)));
      },
    ).stdin?.end();
  });
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
