/**
 * `lift worker` processes for the queue tests, each in its own home (as on its own host):
 * started until they take jobs, stopped with SIGTERM (SIGKILL after a bound) at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { LIFT_BIN, startLift } from '../support/cli.js';

export interface WorkerStart {
  cwd: string;
  env: Record<string, string>;
  /** Named in the log lines (LIFT_TEST_WORKER_LOG) and errors. */
  label: string;
  args?: string[];
  /** A network namespace to run it in (`ip netns exec`), as on its own host. */
  namespace?: string;
  /** Hears the worker's stderr as it comes. */
  onOutput?: (text: string) => void;
}

/** A `lift worker`; resolves once it takes jobs. */
export async function startWorker(options: WorkerStart): Promise<ChildProcess> {
  const args = ['worker', ...(options.args ?? ['--concurrency', '3', '--grace-s', '10'])];
  // ip netns exec runs the command in place (exec), so the child's pid is the worker's own.
  const child = options.namespace
    ? spawn('ip', ['netns', 'exec', options.namespace, process.execPath, LIFT_BIN, ...args], {
        cwd: options.cwd,
        env: { ...process.env, ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : startLift(args, { cwd: options.cwd, env: options.env });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    options.onOutput?.(chunk.toString());
    if (process.env.LIFT_TEST_WORKER_LOG)
      appendFileSync(process.env.LIFT_TEST_WORKER_LOG, `[${options.label} ${child.pid}] ${chunk}`);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`worker ${options.label} did not start: ${stderr}`)),
      60_000,
    );
    const check = () => {
      if (!stderr.includes('takes jobs')) return;
      clearTimeout(timer);
      child.stderr?.off('data', check);
      resolve();
    };
    child.stderr?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker ${options.label} exited ${code}: ${stderr}`));
    });
  });
  return child;
}

/** Stops each worker still running: SIGTERM, then SIGKILL if it is not gone in 20 s. */
export async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.splice(0).map(async (worker) => {
      if (worker.exitCode !== null || worker.signalCode !== null) return;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.kill('SIGTERM');
      await Promise.race([exited, sleep(20_000)]);
      worker.kill('SIGKILL');
    }),
  );
}
