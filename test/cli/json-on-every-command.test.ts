import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandSpec } from '../../src/cli/spec.js';

/** Commands that serve until stopped: what they print is an address or a log, not a result. */
const SERVING = new Set(['serve', 'console', 'fixture', 'worker']);

const COMMANDS = join(import.meta.dirname, '..', '..', 'src', 'cli', 'commands');

/** `lift runs list`, `lift doctor`: every command and visible subcommand with the flags it takes. */
async function commandLines(): Promise<Array<{ line: string; flags: string[] }>> {
  const lines: Array<{ line: string; flags: string[] }> = [];
  for (const file of readdirSync(COMMANDS).filter((name) => name.endsWith('.ts'))) {
    const { spec } = (await import(join(COMMANDS, file))) as { spec: CommandSpec };
    const all = Object.keys(spec.options);
    const subcommands = Object.entries(spec.subcommands ?? {}).filter(([, sub]) => !sub.hidden);
    if (subcommands.length === 0) lines.push({ line: spec.name, flags: all });
    for (const [name, sub] of subcommands)
      lines.push({ line: `${spec.name} ${name}`, flags: sub.options ?? all });
  }
  return lines;
}

describe('--json', () => {
  it('is taken by every command that prints a result (a script need not know which print JSON anyway)', async () => {
    const lines = await commandLines();
    expect(lines.length).toBeGreaterThan(30);
    const without = lines
      .filter(({ line, flags }) => !SERVING.has(line) && !flags.includes('json'))
      .map(({ line }) => line);
    expect(without).toEqual([]);
  });
});
