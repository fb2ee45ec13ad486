import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir();
const env = { LIFT_HOME: join(dir.path, 'home') };
afterAll(() => dir.remove());

/** `tools list`, `call`: the first one or two words of each row of lift --help. */
function helpCommands(help: string): Set<string> {
  const names = new Set<string>();
  for (const match of help.matchAll(/^ {2}([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/gm)) {
    names.add(match[2] ? `${match[1]} ${match[2]}` : (match[1] ?? ''));
  }
  return names;
}

/** The same from the README's command table: `lift session start|observe` names both subcommands. */
function readmeCommands(readme: string, known: Set<string>): Set<string> {
  const names = new Set<string>();
  const rows = readme.split('\n').filter((line) => line.startsWith('| `lift '));
  for (const row of rows) {
    const first = row.split(/(?<!\\)\|/)[1] ?? '';
    for (const [, phrase = ''] of first.matchAll(/`lift ([^`]+)`/g)) {
      const [command = '', second = ''] = phrase.replaceAll('\\|', '|').split(' ');
      const subs = second.split('|').filter((sub) => known.has(`${command} ${sub}`));
      if (subs.length > 0) for (const sub of subs) names.add(`${command} ${sub}`);
      else names.add(known.has(`${command} list`) ? `${command} list` : command);
    }
  }
  return names;
}

describe('lift --help', () => {
  it('lists the same commands and subcommands as the README', async () => {
    const result = await lift(['--help'], { cwd: dir.path, env });
    expect(result.code).toBe(0);
    const help = helpCommands(result.stdout.split('Commands:')[1] ?? '');
    expect(help.size).toBeGreaterThan(30);
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    expect([...readmeCommands(readme, help)].sort()).toEqual([...help].sort());
  });

  it('answers --help and -h on a subcommand with its flags and examples, and suggests a misspelt flag', async () => {
    const help = await lift(['runs', 'show', '-h'], { cwd: dir.path, env });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--json');
    expect(help.stdout).toContain('Examples:');
    const typo = await lift(['runs', '--limt', '3'], { cwd: dir.path, env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean --limit?');
    const command = await lift(['tool'], { cwd: dir.path, env });
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('Did you mean tools?');
  });
});
