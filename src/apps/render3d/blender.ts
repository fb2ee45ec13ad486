import { spawn } from 'node:child_process';
import { LiftError } from '../../contract/errors.js';
import { quietEnvironment } from '../../rungs/cli/environment.js';

export const DEBIAN_BLENDER = '/usr/bin/blender';

export const BLENDER_HINT =
  'Blender (Debian package blender) builds and renders the model in background mode; install it with bash scripts/setup.sh design. The message carries the end of its output.';

export interface BlenderRun {
  program?: string;
  script: string;
  args: string[];
  home: string;
  deadline: number;
  signal: AbortSignal;
  /** Called for each 'PROGRESS <percent> <what>' line the script prints. */
  onProgress: (percent: number, what: string) => void;
}

/**
 * Runs a Python script in Blender with no window, no user settings, and a non-zero exit on
 * any Python error. Its process group is ended at the deadline or on cancel.
 */
export function runBlender(run: BlenderRun): Promise<{ output: string; ms: number }> {
  const started = performance.now();
  const args = [
    '-b',
    '--factory-startup',
    '--python-exit-code',
    '1',
    '--python',
    run.script,
    '--',
    ...run.args,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(run.program ?? DEBIAN_BLENDER, args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: quietEnvironment({ home: run.home }),
    });
    let output = '';
    let pending = '';
    const keep = (text: string) => {
      output = (output + text).slice(-20_000);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      const text = pending + chunk.toString('utf8');
      keep(chunk.toString('utf8'));
      const lines = text.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^PROGRESS (\d+) (.*)$/.exec(line);
        if (match) run.onProgress(Number(match[1]), match[2] ?? '');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => keep(chunk.toString('utf8')));
    const stop = (error: LiftError) => {
      cleanup();
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      reject(error);
    };
    const timer = setTimeout(
      () =>
        stop(
          new LiftError('TIMEOUT', 'Blender did not finish before the deadline; it was ended.', {
            outcome: 'unknown',
          }),
        ),
      Math.max(0, run.deadline - Date.now()),
    );
    const onAbort = () =>
      stop(
        new LiftError('CANCELLED', 'The render was cancelled; Blender was ended.', { outcome: 'unknown' }),
      );
    run.signal.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      cleanup();
      reject(
        new LiftError('PROGRAM_FAILED', `Blender could not be started: ${error.code ?? error.message}.`, {
          hint: BLENDER_HINT,
          outcome: 'not_started',
          cause: error,
        }),
      );
    });
    child.once('close', (code) => {
      cleanup();
      if (code === 0) resolve({ output, ms: performance.now() - started });
      else
        reject(
          new LiftError('PROGRAM_FAILED', `Blender exited with code ${code}: ${output.slice(-600)}`, {
            hint: BLENDER_HINT,
          }),
        );
    });
  });
}
