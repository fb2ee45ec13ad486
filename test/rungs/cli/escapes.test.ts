import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitTools } from '../../../src/apps/git/tools.js';
import { isPending, isSuccess } from '../../../src/contract/envelope.js';
import { runWrapped } from '../../../src/rungs/cli/run-wrapped.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { lift } from '../../support/cli.js';
import { tempDir } from '../../support/temp.js';
import { FIXTURES, failure, gone, killLeftovers, processesWith, uniqueSleep } from './helpers.js';

const temp = tempDir('lift-escapes-');
const tokens: string[] = [];
afterAll(() => {
  for (const token of tokens) killLeftovers(token);
  temp.remove();
});

/** A sleep length for one daemon, remembered so that afterAll ends it should the test fail. */
function token(): string {
  const value = uniqueSleep();
  tokens.push(value);
  return value;
}

const daemonPid = (stdout: string) => Number(/daemon (\d+)/.exec(stdout)?.[1]);
const soon = (ms = 20_000) => Date.now() + ms;

/** The daemon shapes of issue 16.7: fork, setsid (or setpgid), fork, close the standard files, sleep. */
const SHAPES: Array<{ name: string; program: string; args: (sleep: string) => string[] }> = [
  { name: 'shell: fork, setsid, fork, close', program: `${FIXTURES}daemon.sh`, args: (s) => [s] },
  { name: 'python: fork, setsid, fork, close', program: `${FIXTURES}daemon.py`, args: (s) => [s] },
  {
    name: 'python: fork, new process group, fork, close',
    program: `${FIXTURES}daemon.py`,
    args: (s) => ['--setpgid', s],
  },
];

describe('a program that leaves a daemon behind', () => {
  for (const shape of SHAPES) {
    it(`${shape.name}: the daemon is ended when the call ends, and counted`, async () => {
      const sleep = token();
      const result = await runWrapped({ program: shape.program, args: shape.args(sleep), deadline: soon() });
      const daemon = daemonPid(result.stdout.text);
      expect(daemon).toBeGreaterThan(0);
      expect(result.leftoversKilled).toBe(1);
      expect(gone(daemon)).toBe(true);
      expect(processesWith(sleep)).toEqual([]);
    });
  }

  it('a call that times out ends the daemon its program started, too', async () => {
    const sleep = token();
    const { error } = await failure(
      runWrapped({
        program: 'sh',
        args: ['-c', '"$0" "$1"; exec sleep 30', `${FIXTURES}daemon.py`, sleep],
        deadline: soon(1_500),
      }),
    );
    expect(error.code).toBe('TIMEOUT');
    expect(processesWith(sleep)).toEqual([]);
  });

  it('lift exec ends it and reports leftovers_killed', async () => {
    for (const fixture of ['daemon.sh', 'daemon.py']) {
      const sleep = token();
      const { code, stdout } = await lift(['exec', '--json', '--', `${FIXTURES}${fixture}`, sleep], {
        cwd: temp.path,
        env: { LIFT_HOME: join(temp.path, '.lift') },
        timeoutMs: 30_000,
      });
      expect(code).toBe(0);
      const envelope = JSON.parse(stdout);
      expect(envelope.fields.leftovers_killed).toBe(1);
      expect(gone(daemonPid(envelope.fields.stdout))).toBe(true);
      expect(processesWith(sleep)).toEqual([]);
    }
  });

  it('a git hook that daemonizes during git_branch_push leaves nothing running', async () => {
    const work = join(temp.path, 'work');
    const remote = join(temp.path, 'remote.git');
    mkdirSync(work);
    const git = (args: string[], cwd = work) =>
      execFileSync('git', ['-c', 'user.name=Ops', '-c', 'user.email=ops@example.invalid', ...args], {
        cwd,
        env: { PATH: process.env.PATH, HOME: temp.path, GIT_CONFIG_NOSYSTEM: '1' },
        encoding: 'utf8',
      });
    git(['init', '--bare', '--initial-branch=main', remote], temp.path);
    git(['init', '--initial-branch=main']);
    git(['commit', '--allow-empty', '-q', '-m', 'Stock count']);
    git(['remote', 'add', 'origin', remote]);
    const [shell, python] = [token(), token()];
    const hook = join(work, '.git', 'hooks', 'pre-push');
    writeFileSync(
      hook,
      `#!/bin/sh\n"${FIXTURES}daemon.sh" ${shell}\n"${FIXTURES}daemon.py" --setpgid ${python}\n`,
    );
    chmodSync(hook, 0o755);

    const runtime = new Runtime({
      home: join(temp.path, 'git-home'),
      env: {},
      tools: gitTools({ allowedRoots: [temp.path] }),
    });
    try {
      const held = await runtime.invoke('git_branch_push', {
        repo_path: work,
        branch: 'main',
        request_id: 'push-daemon-1',
      });
      if (!isPending(held)) throw new Error(JSON.stringify(held));
      const envelope = await runtime.approve(held.pending.approval_id);
      if (!isSuccess(envelope)) throw new Error(JSON.stringify(envelope));
      expect(envelope.effect).toBe('changed');
    } finally {
      await runtime.close();
    }
    expect(processesWith(shell)).toEqual([]);
    expect(processesWith(python)).toEqual([]);
  });
});
