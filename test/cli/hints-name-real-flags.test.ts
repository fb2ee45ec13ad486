import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandSpec } from '../../src/cli/spec.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const COMMANDS = join(SRC, 'cli', 'commands');

/** Flags of other programs that hints tell a person to start them with. */
const OTHER_PROGRAMS = new Set(['remote-debugging-port', 'user-data-dir']);

async function liftFlags(): Promise<Set<string>> {
  const flags = new Set(['help', 'version']);
  for (const file of readdirSync(COMMANDS).filter((name) => name.endsWith('.ts'))) {
    const { spec } = (await import(join(COMMANDS, file))) as { spec: CommandSpec };
    for (const flag of Object.keys(spec.options)) flags.add(flag);
  }
  return flags;
}

describe('hints', () => {
  it('suggest only flags that lift takes (a hint once offered --headed, which no command had)', async () => {
    const flags = await liftFlags();
    const unknown: string[] = [];
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((name) =>
      name.endsWith('.ts'),
    );
    for (const file of files) {
      const text = readFileSync(join(SRC, file), 'utf8');
      for (const [, , hint = ''] of text.matchAll(/hint:\s*(['"`])((?:(?!\1)[^\\\n]|\\.)*)\1/g))
        for (const [, flag = ''] of hint.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g))
          if (!flags.has(flag) && !OTHER_PROGRAMS.has(flag)) unknown.push(`${file}: --${flag} in "${hint}"`);
    }
    expect(files.length).toBeGreaterThan(300);
    expect(unknown).toEqual([]);
  });
});
