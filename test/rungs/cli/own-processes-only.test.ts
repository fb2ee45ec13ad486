import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownCgroupDirectory } from '../../../src/rungs/cli/call-cgroup.js';
import { Ownership } from '../../../src/rungs/cli/ownership.js';
import { holdersOf, readStat } from '../../../src/rungs/cli/processes.js';
import { runWrapped } from '../../../src/rungs/cli/run-wrapped.js';
import { LIFT_BIN } from '../../support/cli.js';
import { inPidNamespace, PID_NAMESPACES } from '../../support/pid-namespace.js';
import { tempDir } from '../../support/temp.js';
import { FIXTURES, failure, gone, killLeftovers, processesWith, uniqueSleep } from './helpers.js';

const temp = tempDir('lift-own-processes-');
const tokens: string[] = [];
afterAll(() => {
  for (const token of tokens) killLeftovers(token);
  temp.remove();
});

function token(): string {
  const value = uniqueSleep();
  tokens.push(value);
  return value;
}

/** The two commands of the report (issue 40.1) and the daemons of 40.2, each as `lift exec` runs it. */
const HOSTILE: Array<{ name: string; argv: (sleep: string) => string[]; daemon: boolean }> = [
  {
    name: 'a shell that sends its own streams to /dev/null and outlives the deadline',
    argv: (sleep) => ['sh', '-c', `exec </dev/null >/dev/null 2>&1; sleep ${sleep}`],
    daemon: false,
  },
  {
    name: 'setsid -f of a shell with an emptied environment, its streams on /dev/null',
    argv: (sleep) => [
      'sh',
      '-c',
      `setsid -f env -i sh -c "exec sleep ${sleep}" </dev/null >/dev/null 2>&1; echo started`,
    ],
    daemon: true,
  },
  {
    name: 'fork, setsid, fork, close 0-2, execve sleep with an empty environment',
    argv: (sleep) => [`${FIXTURES}shed-daemon.py`, sleep],
    daemon: true,
  },
  {
    name: 'the same daemon under a kernel worker’s name',
    argv: (sleep) => [`${FIXTURES}shed-daemon.py`, '--rename', sleep],
    daemon: true,
  },
];

interface Report {
  sleepers: Array<{ pid: number; kind: string }>;
  processes: Map<number, string>;
  liftExit: number;
  initAlive: boolean;
}

function readReport(stdout: string): Report {
  const report: Report = { sleepers: [], processes: new Map(), liftExit: -1, initAlive: false };
  for (const line of stdout.split('\n')) {
    const [word, first, ...rest] = line.split(' ');
    if (word === 'sleeper') report.sleepers.push({ pid: Number(first), kind: rest.join(' ') });
    if (word === 'process') report.processes.set(Number(first), rest.join(' ').trim());
    if (word === 'lift-exit') report.liftExit = Number(first);
    if (line === 'init alive') report.initAlive = true;
  }
  return report;
}

async function besideStrangers(argv: string[], hideCgroups: boolean) {
  const sleep = token();
  const out = join(temp.path, `run-${sleep}`);
  const run = await inPidNamespace(
    [
      'sh',
      '-c',
      'mkdir -p "$3" && exec "$0" "$@"',
      `${FIXTURES}beside-strangers.sh`,
      LIFT_BIN,
      sleep,
      out,
      '3',
      ...argv,
    ],
    { env: { LIFT_HOME: join(out, 'home') }, hideCgroups, timeoutMs: 60_000 },
  );
  const report = readReport(run.stdout);
  const envelope = JSON.parse(readFileSync(join(out, 'envelope.json'), 'utf8'));
  return { run, report, envelope, sleep };
}

describe.skipIf(!PID_NAMESPACES)(
  'lift exec beside programs that are not the call’s (a private pid namespace)',
  () => {
    for (const hideCgroups of [false, true]) {
      const where = hideCgroups ? 'with no cgroup to be had' : 'in a cgroup of its own';
      for (const shape of HOSTILE) {
        it(`${where}: ${shape.name} — every sleeper and PID 1 survive`, async () => {
          const daemonSleep = token();
          const { run, report, envelope } = await besideStrangers(shape.argv(daemonSleep), hideCgroups);
          expect(run.signal, run.stderr).toBeNull();
          expect(report.initAlive, run.stdout).toBe(true);
          expect(report.sleepers.map((sleeper) => sleeper.kind)).toEqual([
            'devnull',
            'inherited',
            'fd5-devnull',
          ]);
          for (const sleeper of report.sleepers) {
            expect(report.processes.has(sleeper.pid), `${sleeper.kind} sleeper\n${run.stdout}`).toBe(true);
          }
          const left = [...report.processes.values()].filter((line) => line.includes(daemonSleep));
          if (!shape.daemon) {
            expect(envelope.error?.code).toBe('TIMEOUT');
            expect(left).toEqual([]);
          } else if (!hideCgroups) {
            // The cgroup holds whatever the program started, environment or not: nothing is left.
            expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
            expect(envelope.fields.leftovers_killed).toBeGreaterThanOrEqual(1);
            expect(left).toEqual([]);
          }
        });
      }
    }
  },
);

describe('on this machine itself, a sleeper of the test’s own', () => {
  it('survives a call whose program sent its streams to /dev/null and timed out', async () => {
    const own = token();
    const sleeper = spawn('sleep', [own], { stdio: 'ignore', detached: true });
    sleeper.unref();
    const sleep = token();
    const { error } = await failure(
      runWrapped({
        program: 'sh',
        args: ['-c', `exec </dev/null >/dev/null 2>&1; sleep ${sleep}`],
        deadline: Date.now() + 1_500,
      }),
    );
    expect(error.code).toBe('TIMEOUT');
    expect(gone(sleeper.pid!)).toBe(false);
    expect(processesWith(sleep)).toEqual([]);
    sleeper.kill('SIGKILL');
  });

  it('the call’s own daemon that shed its environment and name is ended, and counted', async () => {
    for (const rename of [false, true]) {
      const sleep = token();
      const result = await runWrapped({
        program: `${FIXTURES}shed-daemon.py`,
        args: rename ? ['--rename', sleep] : [sleep],
        deadline: Date.now() + 20_000,
      });
      const daemon = Number(/daemon (\d+)/.exec(result.stdout.text)?.[1]);
      expect(daemon).toBeGreaterThan(0);
      expect(result.leftoversKilled).toBe(1);
      expect(gone(daemon)).toBe(true);
      expect(processesWith(sleep)).toEqual([]);
    }
  });
});

describe('what may be signalled at all', () => {
  it('never PID 1, Lift, its parent, or a process that began before the call', async () => {
    const older = spawn('sleep', [token()], { stdio: 'ignore' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const owner = new Ownership();
    expect(owner.mayEnd(1)).toBe(false);
    expect(owner.mayEnd(process.pid)).toBe(false);
    expect(owner.mayEnd(process.ppid)).toBe(false);
    expect(owner.mayEnd(older.pid!)).toBe(false);
    const younger = spawn('sleep', [token()], { stdio: 'ignore' });
    expect(owner.mayEnd(younger.pid!)).toBe(true);
    // The same pid with another start time is another process.
    expect(owner.mayEnd(younger.pid!, (readStat(younger.pid!)?.startTime ?? 0) + 1)).toBe(false);
    older.kill('SIGKILL');
    younger.kill('SIGKILL');
  });

  it('holding a path such as /dev/null proves nothing: only a pipe or socket names a holder', () => {
    const sleeper = spawn('sleep', [token()], { stdio: 'ignore' });
    expect(holdersOf(new Set(['/dev/null']))).toEqual([]);
    expect(holdersOf(new Set(['/dev/null', 'socket:[1]']))).toEqual([]);
    sleeper.kill('SIGKILL');
  });

  it('no cgroup of a call outlives it', async () => {
    const sleep = token();
    await runWrapped({
      program: 'sh',
      args: ['-c', `setsid -f sleep ${sleep} </dev/null >/dev/null 2>&1`],
      deadline: Date.now() + 10_000,
    });
    const parent = ownCgroupDirectory();
    expect(parent, 'this machine gives Lift a cgroup v2').toBeDefined();
    const mine = readdirSync(parent!).filter((name) => name.startsWith(`lift-call-${process.pid}-`));
    expect(mine).toEqual([]);
    expect(processesWith(sleep)).toEqual([]);
  });
});
