import { spawn } from 'node:child_process';

/**
 * Whether this machine lets a test start programs in a private pid namespace (root, and
 * util-linux's unshare): hostile programs then run where a bug in Lift's process handling can
 * end nothing but the namespace itself.
 */
export const PID_NAMESPACES = process.getuid?.() === 0;

export interface NamespaceRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `argv` as PID 1 of a new pid and mount namespace with its own /proc, standard input
 * /dev/null. With `hideCgroups` a tmpfs covers /sys/fs/cgroup inside, as on a machine that gives
 * Lift no cgroup. Whatever is left in the namespace ends when its first process does.
 */
export function inPidNamespace(
  argv: string[],
  options: { env?: Record<string, string>; hideCgroups?: boolean; timeoutMs?: number } = {},
): Promise<NamespaceRun> {
  const inner = options.hideCgroups
    ? ['sh', '-c', 'mount -t tmpfs lift-no-cgroups /sys/fs/cgroup && exec "$@"', 'sh', ...argv]
    : argv;
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', ['--pid', '--fork', '--mount-proc', '--', ...inner], {
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`the namespace did not finish in ${options.timeoutMs ?? 60_000} ms\n${stdout}\n${stderr}`),
      );
    }, options.timeoutMs ?? 60_000);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
