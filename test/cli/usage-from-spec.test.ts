import { describe, expect, it } from 'vitest';
import { spec as sessionSpec } from '../../src/cli/commands/session.js';
import { usageOf } from '../../src/cli/help.js';
import { lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

describe('a usage error', () => {
  it('is derived from the command declaration: every listed subcommand, its arguments and its flags', () => {
    const usage = usageOf(sessionSpec);
    const listed = Object.entries(sessionSpec.subcommands ?? {}).filter(([, sub]) => !sub.hidden);
    expect(usage.split('\n')).toHaveLength(listed.length);
    expect(usage).toMatch(/^Usage: lift session start \[--url URL\] \[--policy FILE\]/);
    expect(usage).toContain('lift session observe <id> [--screenshot] [--find TEXT] [--page N] [--json]');
    expect(usage).toContain('lift session complete <id> <result> [--json]');
    expect(usage).not.toContain('daemon');
  });

  it('is what lift session start prints without a policy', async () => {
    const dir = tempDir('lift-usage-');
    const result = await lift(['session', 'start', '--url', 'http://127.0.0.1:9/'], {
      cwd: dir.path,
      env: { LIFT_HOME: `${dir.path}/home` },
    }).finally(() => dir.remove());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(usageOf(sessionSpec).split('\n')[1]);
  });
});
