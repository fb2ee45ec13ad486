import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SETUP_GROUPS, type SetupGroup } from '../../src/contract/setup-groups.js';
import { runWrapped } from '../../src/rungs/cli/run-wrapped.js';

const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'setup.sh');

/** What `setup.sh --list ARGS` would install, in its order; nothing is installed. */
async function listed(...args: string[]): Promise<string[]> {
  const { stdout } = await run('bash', [SCRIPT, '--list', ...args]);
  return stdout.split('\n').filter(Boolean);
}

const union = (groups: readonly SetupGroup[]) => [...new Set(groups.flatMap((group) => SETUP_GROUPS[group]))];

describe('scripts/setup.sh installs the core by default and the families it is given', () => {
  it('lists the same packages per group as lift doctor knows them', async () => {
    expect(await listed()).toEqual([...SETUP_GROUPS.core]);
    for (const group of Object.keys(SETUP_GROUPS) as SetupGroup[])
      expect(await listed(group), group).toEqual(union(['core', group]));
    expect(await listed('office', 'design')).toEqual(union(['core', 'office', 'design']));
    expect(await listed('--all')).toEqual(union(Object.keys(SETUP_GROUPS) as SetupGroup[]));
  });

  it('the core alone leaves out the office suite, Blender, the desktop and the test bed', async () => {
    const core = await listed();
    expect(core).toContain('chromium');
    for (const heavy of ['libreoffice-calc', 'blender', 'xvfb', 'mariadb-server', 'redmine'])
      expect(core).not.toContain(heavy);
  });

  it('refuses a group it does not know, naming the ones it has, and installs nothing', async () => {
    const refused = await run('bash', [SCRIPT, '--list', 'ofice']).catch((error) => error);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("no group named 'ofice'");
    expect(refused.stderr).toContain(Object.keys(SETUP_GROUPS).join(' '));
  });

  it('a tool whose program is missing answers with the line that installs it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'lift-no-programs-'));
    const error = await runWrapped({ program: 'melt', path: empty, deadline: Date.now() + 5000 }).catch(
      (caught) => caught,
    );
    expect(error).toMatchObject({ code: 'PROGRAM_FAILED', outcome: 'not_started' });
    expect(error.hint).toContain('bash scripts/setup.sh video');
    expect(error.hint).toContain('apt-get install -y --no-install-recommends melt');
  });
});
