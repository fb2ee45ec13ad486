import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir('lift-roots-config-');
afterAll(() => dir.remove());

const work = join(dir.path, 'work');
const repos = join(dir.path, 'repos');
const repo = join(repos, 'stock');
mkdirSync(work);
mkdirSync(repo, { recursive: true });
const git = (args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'ignore' });
git(['init', '-q', '--initial-branch=main']);
git([
  '-c',
  'user.email=a@b.invalid',
  '-c',
  'user.name=A',
  'commit',
  '-q',
  '--allow-empty',
  '-m',
  'First count',
]);

const env = { LIFT_HOME: join(work, '.lift') };
const call = async (input: unknown) => {
  const ran = await lift(['call', 'git_log_read', '--input', JSON.stringify(input), '--json'], {
    cwd: work,
    env,
  });
  return JSON.parse(ran.stdout) as { ok: boolean; error?: { code: string; message: string; hint: string } };
};

describe('lift.config.json settings.<family>.roots', () => {
  it('by default, git tools reach only the working folder, and say how to add a root', async () => {
    const envelope = await call({ repo_path: repo });
    expect(envelope.error?.code).toBe('BAD_INPUT');
    expect(envelope.error?.message).toContain(work);
    expect(envelope.error?.hint).toContain('"settings": { "git": { "roots"');
  });

  it('a configured root lets them reach a repository outside it', async () => {
    writeFileSync(
      join(work, 'lift.config.json'),
      JSON.stringify({ settings: { git: { roots: ['../repos'] } } }),
    );
    const envelope = await call({ repo_path: repo });
    expect(envelope, JSON.stringify(envelope)).toMatchObject({
      ok: true,
      fields: { commits: [{ subject: 'First count' }] },
    });
  });
});
