import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/contract/define-tool.js';
import { isPending, isSuccess } from '../../../src/contract/envelope.js';
import { runWrapped } from '../../../src/rungs/cli/run-wrapped.js';
import { Runtime } from '../../../src/runtime/runtime.js';

/**
 * Real apt-get, made harmless: a private state folder whose status file lists one
 * package that exists nowhere else, no sources, no system configuration, and /bin/true in
 * place of dpkg. apt-get still asks "Do you want to continue? [Y/n]" exactly as it does
 * for a real removal. (`apt-get --simulate` never asks, so it cannot show the gate.)
 */
const root = mkdtempSync(join(tmpdir(), 'lift-apt-'));
for (const dir of [
  'state/lists/partial',
  'cache/archives/partial',
  'log',
  'sources.list.d',
  'apt.conf.d',
  'preferences.d',
]) {
  mkdirSync(join(root, dir), { recursive: true });
}
writeFileSync(join(root, 'sources.list'), '');
writeFileSync(
  join(root, 'status'),
  `Package: lift-demo
Status: install ok installed
Priority: optional
Section: misc
Installed-Size: 1
Maintainer: Lift <lift@example.invalid>
Architecture: all
Version: 1.0
Description: a package that exists only in this test's private status file

`,
);
const PRIVATE = [
  `Dir::State=${root}/state`,
  `Dir::State::status=${root}/status`,
  `Dir::Cache=${root}/cache`,
  `Dir::Log=${root}/log`,
  `Dir::Etc::SourceList=${root}/sources.list`,
  `Dir::Etc::SourceParts=${root}/sources.list.d`,
  `Dir::Etc::Parts=${root}/apt.conf.d`,
  `Dir::Etc::PreferencesParts=${root}/preferences.d`,
  'Dir::Bin::dpkg=/bin/true',
  'Debug::NoLocking=1',
].flatMap((option) => ['-o', option]);

const removePackage = defineTool({
  name: 'package_remove',
  description:
    'Removes one package with apt-get after review. Returns the package name and the apt history entry.',
  rung: 'cli',
  input: z.strictObject({ package: z.enum(['lift-demo']) }),
  output: z.object({ package: z.string(), history: z.string() }),
  effect: { class: 'visible', gate: 'review' },
  timeout: { deadlineMs: 60_000 },
  confirmations: ['Do you want to continue? [Y/n] -> Y'],
  example: { package: 'lift-demo' },
  run: async (input, ctx) => {
    const result = await runWrapped({
      program: 'apt-get',
      args: [...PRIVATE, 'remove', input.package],
      deadline: ctx.deadline,
      signal: ctx.signal,
      confirmations: [{ pattern: /^Do you want to continue\? \[Y\/n\]$/, answer: 'Y' }],
      approved: ctx.approved,
      effectStarts: 'confirmation',
      onStarted: () => ctx.markStarted(),
    });
    ctx.emit({ type: 'action-performed', questions: result.answered });
    const history = readFileSync(join(root, 'log', 'history.log'), 'utf8');
    return { fields: { package: input.package, history }, summary: `Removed ${input.package}` };
  },
});

const home = mkdtempSync(join(tmpdir(), 'lift-apt-home-'));
const lift = new Runtime({ home, tools: [removePackage] });
afterAll(async () => {
  await lift.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('apt-get asking to continue', () => {
  it('without approval the question is not answered: PROMPT_UNEXPECTED, and apt-get did nothing', async () => {
    const error = await runWrapped({
      program: 'apt-get',
      args: [...PRIVATE, 'remove', 'lift-demo'],
      confirmations: [{ pattern: /^Do you want to continue\? \[Y\/n\]$/, answer: 'Y' }],
      approved: false,
      effectStarts: 'confirmation',
      deadline: Date.now() + 30_000,
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'PROMPT_UNEXPECTED', outcome: 'not_started' });
    expect(readFileSync(join(root, 'log', 'history.log'), { encoding: 'utf8', flag: 'a+' })).not.toContain(
      'Remove:',
    );
  }, 40_000);

  it('is held at the review gate, then answered once after approval', async () => {
    const held = await lift.invoke('package_remove', { package: 'lift-demo' });
    if (!isPending(held)) throw new Error(JSON.stringify(held));
    expect(held.pending.gate).toBe('review');

    const envelope = await lift.approve(held.pending.approval_id);
    if (!isSuccess(envelope)) throw new Error(JSON.stringify(envelope));
    const history = String(envelope.fields.history);
    expect(history.match(/Remove: lift-demo/g)).toHaveLength(1);
    const events = await lift.store.runs.events(envelope.run_id);
    expect(events.find((event) => event.type === 'action-performed')?.questions).toEqual([
      'Do you want to continue? [Y/n]',
    ]);
  }, 40_000);
});
