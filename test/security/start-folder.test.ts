/**
 * Roots that mean something (issue 40): a Lift started from `/`, the user's whole home or a system
 * folder opens no folder to path tools until someone sets a root (lift.config `roots`, `--root`),
 * and says how; a project's working folder stays the default root.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir('lift-start-folder-');
afterAll(() => dir.remove());

const home = join(dir.path, 'lift-home');
const repos = join(dir.path, 'repos');
const inRoot = join(repos, 'stock');
const elsewhere = join(dir.path, 'elsewhere', 'books');
const userHome = join(dir.path, 'person');
const work = join(dir.path, 'work');
for (const folder of [userHome, work]) mkdirSync(folder, { recursive: true });

function repository(path: string, subject: string): void {
  mkdirSync(path, { recursive: true });
  const git = (args: string[]) => execFileSync('git', ['-C', path, ...args], { stdio: 'ignore' });
  git(['init', '-q', '--initial-branch=main']);
  git(['-c', 'user.email=a@b.invalid', '-c', 'user.name=A', 'commit', '-q', '--allow-empty', '-m', subject]);
}
repository(inRoot, 'First count');
repository(elsewhere, 'Private books');
repository(join(userHome, 'notes'), 'Diary');

interface Answer {
  ok: boolean;
  fields?: { commits?: Array<{ subject: string }> };
  error?: { code: string; message: string; hint: string; outcome?: string };
}

async function call(cwd: string, tool: string, input: unknown, flags: string[] = [], env = {}) {
  const ran = await lift(['call', tool, '--input', JSON.stringify(input), ...flags], {
    cwd,
    env: { LIFT_HOME: home, ...env },
  });
  return { answer: JSON.parse(ran.stdout) as Answer, stderr: ran.stderr };
}

const log = (cwd: string, repo_path: string, flags: string[] = [], env = {}) =>
  call(cwd, 'git_log_read', { repo_path }, flags, env);

/** A refusal that says a root must be set, and how. */
function expectNoRoot(answer: Answer, startedFrom: string, why: string) {
  expect(answer.error?.code, JSON.stringify(answer)).toBe('BAD_INPUT');
  expect(answer.error?.outcome).toBe('not_started');
  expect(answer.error?.message).toContain(`Lift was started from ${startedFrom}, ${why}`);
  expect(answer.error?.hint).toContain('--root /path/to/project');
  expect(answer.error?.hint).toContain('"roots": ["/path/to/project"] in lift.config.json');
  expect(answer.error?.hint).toContain("MCP client's roots");
}

describe('a Lift started from a folder that is no root', () => {
  it('from /, convert_document does not copy /etc/shadow into out/', async () => {
    const { answer } = await call('/', 'convert_document', { path: '/etc/shadow', to: 'txt' });
    expectNoRoot(answer, '/', 'the whole disk');
    const converted = join(home, 'out', 'convert_document');
    expect(existsSync(converted) ? readdirSync(converted) : []).toEqual([]);
  });

  it('from /, git_log_read reads no repository', async () => {
    const { answer } = await log('/', inRoot);
    expectNoRoot(answer, '/', 'the whole disk');
    expect(JSON.stringify(answer)).not.toContain('First count');
  });

  it("from the user's whole home, git_log_read reads nothing in it", async () => {
    const { answer } = await log(userHome, join(userHome, 'notes'), [], { HOME: userHome });
    expectNoRoot(answer, userHome, 'your whole home folder');
    expect(JSON.stringify(answer)).not.toContain('Diary');
  });

  it('from a system folder, git_log_read reads nothing', async () => {
    const { answer } = await log('/etc', inRoot);
    expectNoRoot(answer, '/etc', 'a system folder');
  });
});

describe('--root DIR', () => {
  it('from /, opens the folder it names, and only that one', async () => {
    const inside = await log('/', inRoot, ['--root', repos]);
    expect(inside.answer, JSON.stringify(inside.answer)).toMatchObject({
      ok: true,
      fields: { commits: [{ subject: 'First count' }] },
    });
    const outside = await log('/', elsewhere, ['--root', repos]);
    expect(outside.answer.error?.code).toBe('BAD_INPUT');
    expect(outside.answer.error?.message).toContain(repos);
    expect(JSON.stringify(outside.answer)).not.toContain('Private books');
  });

  it('refuses a folder that does not exist', async () => {
    const ran = await lift(['call', 'git_log_read', '--input', '{}', '--root', join(dir.path, 'nowhere')], {
      cwd: '/',
      env: { LIFT_HOME: home },
    });
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toContain('no such folder');
  });
});

describe('lift.config.json roots', () => {
  it('replace the working folder as the root, come before --root, and say so', async () => {
    writeFileSync(join(work, 'lift.config.json'), JSON.stringify({ roots: ['../repos'] }));
    repository(join(work, 'own'), 'In the working folder');
    try {
      expect((await log(work, inRoot)).answer).toMatchObject({ ok: true });
      const own = await log(work, join(work, 'own'));
      expect(own.answer.error?.code).toBe('BAD_INPUT');
      expect(own.answer.error?.message).toContain(repos);
      const flagged = await log(work, inRoot, ['--root', elsewhere]);
      expect(flagged.answer).toMatchObject({ ok: true });
      expect(flagged.stderr).toContain('--root is not used');
    } finally {
      writeFileSync(join(work, 'lift.config.json'), '{}');
    }
  });

  it('without roots, a project working folder is the root, as before', async () => {
    repository(join(work, 'project-repo'), 'Project work');
    expect((await log(work, join(work, 'project-repo'))).answer).toMatchObject({ ok: true });
  });
});
