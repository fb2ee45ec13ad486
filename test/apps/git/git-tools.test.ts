import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitTools } from '../../../src/apps/git/tools.js';
import { isError, isPending, isSuccess } from '../../../src/contract/envelope.js';
import { runWrapped } from '../../../src/rungs/cli/run-wrapped.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { type HttpRemote, startHttpRemote } from './http-remote.js';

const PASSWORD = 'canary-git-91c4be02';
const temp = mkdtempSync(join(tmpdir(), 'lift-git-'));
const work = join(temp, 'work');
const served = join(temp, 'served');
const runtimes: Runtime[] = [];
let remote: HttpRemote;

function sh(args: string[], cwd = work): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: temp, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' },
  });
}

beforeAll(async () => {
  mkdirSync(work);
  mkdirSync(served);
  sh(['init', '--bare', '--initial-branch=main', join(served, 'stock.git')], served);
  sh(['init', '--initial-branch=main']);
  sh(['config', 'user.email', 'ops@example.invalid']);
  sh(['config', 'user.name', 'Ops']);
  // A pager that waits for a person, as many people have configured.
  sh(['config', 'core.pager', 'less -+F -+X']);
  for (let index = 1; index <= 60; index++) {
    writeFileSync(join(work, 'count.txt'), String(index));
    sh(['commit', '-q', '-a', '--allow-empty', '-m', `Stock count ${index}`]);
    if (index === 1) sh(['add', 'count.txt']);
  }
  remote = await startHttpRemote(served, 'ops', PASSWORD);
  sh(['remote', 'add', 'origin', `${remote.url}stock.git`]);
}, 60_000);

afterAll(async () => {
  for (const runtime of runtimes) await runtime.close();
  await remote?.close();
  rmSync(temp, { recursive: true, force: true });
});

function lift(secrets: Record<string, string> = {}): Runtime {
  const runtime = new Runtime({
    home: mkdtempSync(join(temp, 'home-')),
    env: secrets,
    tools: gitTools({
      allowedRoots: [temp],
      credentials: { usernameSecret: 'git_user', passwordSecret: 'git_password' },
    }),
  });
  runtimes.push(runtime);
  return runtime;
}

describe('git_log_read', () => {
  it('reads commits in a fixed format from a repository whose pager would wait for a person', async () => {
    const envelope = await lift().invoke('git_log_read', { repo_path: work, max_count: 50 });
    if (!isSuccess(envelope)) throw new Error(JSON.stringify(envelope));
    const commits = envelope.fields.commits as Array<{ subject: string; sha: string }>;
    expect(commits).toHaveLength(50);
    expect(commits[0]?.subject).toBe('Stock count 60');
    expect(commits[0]?.sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('git --paginate log with less configured as pager still finishes (the pager is cat)', async () => {
    const result = await runWrapped({
      program: 'git',
      args: ['-C', work, '--paginate', 'log'],
      deadline: Date.now() + 15_000,
    });
    expect(result.stdout.text).toContain('Stock count 1\n');
  });

  it('refuses a path outside the allowed folders before running git', async () => {
    const envelope = await lift().invoke('git_log_read', { repo_path: '/etc' });
    expect(isError(envelope) && envelope.error.code).toBe('BAD_INPUT');
  });
});

describe('git_branch_push', () => {
  it('to a remote that asks for credentials the wrapper lacks: AUTH_REQUIRED at once, nothing pushed', async () => {
    const runtime = lift();
    const held = await runtime.invoke('git_branch_push', {
      repo_path: work,
      branch: 'main',
      request_id: 'push-000001',
    });
    if (!isPending(held)) throw new Error(JSON.stringify(held));
    const started = performance.now();
    const envelope = await runtime.approve(held.pending.approval_id);
    if (!isError(envelope)) throw new Error(JSON.stringify(envelope));
    expect(envelope.error.code).toBe('AUTH_REQUIRED');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(remote.refused()).toBeGreaterThan(0);
    expect(sh(['ls-remote', join(served, 'stock.git')])).toBe('');
  });

  it('a wrong password is AUTH_REQUIRED too, and never appears in the envelope', async () => {
    const runtime = lift({ LIFT_SECRET_GIT_USER: 'ops', LIFT_SECRET_GIT_PASSWORD: 'not-the-password' });
    const held = await runtime.invoke('git_branch_push', {
      repo_path: work,
      branch: 'main',
      request_id: 'push-000002',
    });
    if (!isPending(held)) throw new Error(JSON.stringify(held));
    const envelope = await runtime.approve(held.pending.approval_id);
    expect(isError(envelope) && envelope.error.code).toBe('AUTH_REQUIRED');
    expect(JSON.stringify(envelope)).not.toContain('not-the-password');
  });

  it('with the stored credentials pushes and reads the remote branch back; a repeat is no_change', async () => {
    const runtime = lift({ LIFT_SECRET_GIT_USER: 'ops', LIFT_SECRET_GIT_PASSWORD: PASSWORD });
    const held = await runtime.invoke('git_branch_push', {
      repo_path: work,
      branch: 'main',
      request_id: 'push-000003',
    });
    if (!isPending(held)) throw new Error(JSON.stringify(held));
    const envelope = await runtime.approve(held.pending.approval_id);
    if (!isSuccess(envelope)) throw new Error(JSON.stringify(envelope));
    const head = sh(['rev-parse', 'HEAD']).trim();
    expect(envelope.effect).toBe('changed');
    expect(envelope.fields.remote_sha).toBe(head);
    expect(sh(['ls-remote', join(served, 'stock.git'), 'refs/heads/main'])).toContain(head);
    expect(JSON.stringify(envelope)).not.toContain(PASSWORD);

    const again = await runtime.invoke('git_branch_push', {
      repo_path: work,
      branch: 'main',
      request_id: 'push-000004',
    });
    if (!isPending(again)) throw new Error(JSON.stringify(again));
    const repeat = await runtime.approve(again.pending.approval_id);
    expect(isSuccess(repeat) && repeat.effect).toBe('no_change');
  }, 60_000);
});
