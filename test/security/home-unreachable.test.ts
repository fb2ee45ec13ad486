/**
 * Lift's home (the secret store, the database with the ledger and held approvals, the run logs)
 * can be reached through no tool: every built-in tool field that takes a path is given each of
 * them, and each answer is a refusal that carries none of their content.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import { PATH_KEY, pathsIn } from './fuzz/bad-inputs.js';
import { openWorld } from './fuzz/world.js';
import { SECRET_CANARY } from './support.js';

const world = await openWorld();
afterAll(() => world.close());

const INTERNALS = ['secrets.json', 'lift.db', 'lift.db-wal', 'runs', '.'];
/** And every other escape the fuzz draws from, absolute and relative. */
const ESCAPING = [
  '/etc/passwd',
  '/etc/shadow',
  '/proc/self/environ',
  '/',
  '/root/.ssh/id_rsa',
  '..',
  '../../etc/passwd',
];

/** Every (tool, field path) whose example value is a string under a path-like key. */
const pathFields = world.runtime.registry
  .list()
  .filter((tool) => !world.fixtureNames.has(tool.name))
  .flatMap((tool) =>
    pathsIn(tool.example)
      .filter((path) => PATH_KEY.test(String(path.at(-1))))
      .map((path) => [tool.name, path] as const),
  );

function withValue(example: unknown, path: ReadonlyArray<string | number>, value: string): unknown {
  const copy = structuredClone(example) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1)!] = value;
  return copy;
}

describe("no tool reaches Lift's home", () => {
  it('knows the path fields of the built-in tools', () => {
    expect(pathFields.map(([tool, path]) => `${tool}.${path.join('.')}`)).toEqual(
      expect.arrayContaining([
        'convert_document.path',
        'git_log_read.repo_path',
        'git_branch_push.repo_path',
      ]),
    );
  });

  it.each(pathFields)('%s %j refuses every file of the home and every escape', async (name, path) => {
    const tool = world.runtime.registry.get(name)!;
    for (const target of [...INTERNALS.map((internal) => join(world.home, internal)), ...ESCAPING]) {
      const before = world.snapshot();
      const envelope = await world.runtime.invoke(name, withValue(tool.example, path, target));
      const text = JSON.stringify(envelope);
      if (!('error' in envelope)) throw new Error(`${name} reached ${target}: ${text.slice(0, 300)}`);
      expect(['BAD_INPUT']).toContain(envelope.error.code);
      expect(text).not.toContain(SECRET_CANARY);
      expect(world.snapshot()).toBe(before);
    }
  });

  it('scrubs a secret a tool puts in its own error message', async () => {
    const leaky = defineTool({
      name: 'leaky_fail',
      description: 'Fails with the token in its message, as careless code does.',
      rung: 'api',
      input: z.strictObject({}),
      output: z.object({}),
      effect: { class: 'read' },
      timeout: { deadlineMs: 5_000 },
      example: {},
      run: async (_input, ctx) =>
        ctx.fail('UPSTREAM_ERROR', `The server refused token ${ctx.secret('api_token')}.`),
    });
    world.runtime.registry.add(leaky);
    const envelope = await world.runtime.invoke('leaky_fail', {});
    expect('error' in envelope && envelope.error.code).toBe('UPSTREAM_ERROR');
    expect(JSON.stringify(envelope)).not.toContain(SECRET_CANARY);
  });
});
