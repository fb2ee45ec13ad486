import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WORKER = new URL('../../../src/fixtures/services/demo-worker.py', import.meta.url).pathname;

export interface Supervisor {
  dir: string;
  config: string;
  /** Touch this file to make the worker fail its next start. */
  brokenFlag: string;
  stop(): Promise<void>;
}

/** Starts a private supervisord (foreground, unix socket in a temp dir) supervising demo-worker. */
export async function startSupervisor(): Promise<Supervisor> {
  const dir = mkdtempSync(join(tmpdir(), 'lift-supervisor-'));
  const config = join(dir, 'supervisord.conf');
  const brokenFlag = join(dir, 'broken');
  writeFileSync(
    config,
    `[unix_http_server]
file=${dir}/supervisor.sock
[supervisord]
logfile=${dir}/supervisord.log
pidfile=${dir}/supervisord.pid
childlogdir=${dir}
nodaemon=true
user=root
[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface
[supervisorctl]
serverurl=unix://${dir}/supervisor.sock
[program:demo-worker]
command=/usr/bin/python3 ${WORKER}
environment=DEMO_WORKER_BROKEN="${brokenFlag}",DEMO_WORKER_HEARTBEAT="${dir}/heartbeat"
startsecs=1
startretries=0
autorestart=false
stopwaitsecs=3
`,
  );
  const daemon: ChildProcess = spawn('supervisord', ['-c', config], { stdio: 'ignore' });
  const until = Date.now() + 20_000;
  for (;;) {
    try {
      const status = execFileSync('supervisorctl', ['-c', config, 'status', 'demo-worker'], {
        encoding: 'utf8',
      });
      if (status.includes('RUNNING')) break;
    } catch {
      // Not up yet (the socket is missing, or the worker is still STARTING).
    }
    if (Date.now() > until) throw new Error('supervisord did not start demo-worker within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    dir,
    config,
    brokenFlag,
    stop: async () => {
      const exited = new Promise((resolve) => daemon.once('exit', resolve));
      daemon.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 8_000))]);
      if (daemon.exitCode === null) daemon.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
