import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lift } from '../support/cli.js';
import { type ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-openai-server.js';
import { tempDir } from '../support/temp.js';
import { API_KEY_CANARY, TEST_SHORTLIST } from './harness.js';

let server: ScriptedServer;
const folder = tempDir('lift-run-cli-');

beforeAll(async () => {
  server = await startScriptedOpenAIServer();
  writeFileSync(
    join(folder.path, 'lift.config.json'),
    JSON.stringify({ tools: [join(import.meta.dirname, 'tools.ts')], shortlist: TEST_SHORTLIST }),
  );
});
afterAll(async () => {
  await server.close();
  folder.remove();
});

const env = () => ({
  LIFT_MODEL: 'openai:gpt-test',
  LIFT_BASE_URL: server.baseURL,
  LIFT_SECRET_OPENAI_API_KEY: API_KEY_CANARY,
  LIFT_HOME: join(folder.path, '.lift'),
});

describe('lift run and lift ledger', () => {
  it('runs a task with a trace, leaves an outward call pending without a terminal, and prints the ledger', async () => {
    server.enqueue(
      {
        kind: 'answer',
        toolCalls: [{ name: 'write_note', args: { title: 'Plan', text: 'one two three' } }],
        usage: { input: 900, output: 30 },
      },
      { kind: 'answer', text: 'Wrote plan.txt.', usage: { input: 1100, output: 8 } },
    );
    const done = await lift(['run', 'write a note called Plan with one two three', '--hedge-s', '0'], {
      cwd: folder.path,
      env: env(),
    });
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/^shortlist {2}notes 8\.0 .*-> clear: notes/m);
    expect(done.stdout).toMatch(
      /^model +\d+\.\d s +in 900 tok +-> write_note\(title="Plan", text="one two three"\)$/m,
    );
    expect(done.stdout).toMatch(/^tool .*<- ok, 1\/1 checks/m);
    expect(done.stdout).toMatch(
      /^total \d+\.\d s, 2 model calls, 1 tool call, 2,000 input tokens, 1\/1 checks$/m,
    );
    expect(done.stdout.trim().split('\n').at(-1)).toBe('Wrote plan.txt.');

    server.enqueue({
      kind: 'answer',
      toolCalls: [{ name: 'post_message', args: { channel: '#team', path: '/tmp/plan.txt' } }],
    });
    const held = await lift(['run', 'post plan.txt to #team', '--max-turns', '3'], {
      cwd: folder.path,
      env: env(),
    });
    expect(held.code).toBe(4);
    expect(held.stdout).toMatch(/^held {3}post_message for review: Post plan\.txt to #team$/m);
    expect(held.stdout).toMatch(/^left pending: lift approve ap_[0-9a-f]+/m);

    const ledger = await lift(['ledger'], { cwd: folder.path, env: env() });
    expect(ledger.code).toBe(0);
    const rows = ledger.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^task +model tools +UI +tokens in +tokens out +seconds +checks +outcome$/);
    expect(rows[1]).toMatch(
      /^write a note called Plan with one two t… +2 +1 +0 +2,000 +38 +\d+\.\d s +1\/1 +answered$/,
    );
    expect(rows[2]).toMatch(/^post plan\.txt to #team +1 +0 +0 .* pending$/);
    expect(ledger.stdout).not.toContain(API_KEY_CANARY);
    const json = await lift(['ledger', '--json'], { cwd: folder.path, env: env() });
    const tasks = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    const written = tasks.find((task) => task.outcome === 'answered');
    expect(written).toMatchObject({ model_calls: 2, tool_calls: 1, checks_passed: 1, checks_total: 1 });
    expect(tasks.flatMap(Object.keys).filter((key) => /[A-Z]/.test(key))).toEqual([]);
  }, 180_000);

  it('says what is missing when LIFT_MODEL is not set', async () => {
    const result = await lift(['run', 'hello'], { cwd: folder.path, env: { ...env(), LIFT_MODEL: '' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('LIFT_MODEL is not set');
  });
});
