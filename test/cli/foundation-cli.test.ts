import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lift, startLift } from '../support/cli.js';
import { readSystem } from '../support/foundation-tools.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir();
const system = join(dir.path, 'system.json');
const env = { LIFT_TEST_SYSTEM: system, LIFT_HOME: join(dir.path, 'home') };
const run = (args: string[], input?: string) =>
  lift(args, { cwd: dir.path, env, ...(input !== undefined ? { input } : {}) });

beforeAll(() => {
  const tools = join(import.meta.dirname, '..', 'support', 'foundation-tools.ts');
  writeFileSync(join(dir.path, 'lift.config.json'), JSON.stringify({ tools: [tools] }));
});
afterAll(() => dir.remove());

describe('lift', () => {
  it('prints its version', async () => {
    const result = await run(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('lists configured tools and prints a contract card in the WRAPPER CONTRACT layout', async () => {
    const list = await run(['tools', 'list']);
    expect(list.stdout).toContain('record_create');
    const card = await run(['tools', 'show', 'notice_publish']);
    for (const heading of [
      'WRAPPER CONTRACT',
      'Tool',
      'Rung',
      '1 INPUTS',
      '2 OUTPUT',
      '3 ERRORS',
      '4 SIDE EFFECT',
      '5 TIMEOUT',
      'Session',
    ]) {
      expect(card.stdout).toContain(heading);
    }
    expect(card.stdout).toContain('class: visible · gate: review');
    expect(card.stdout).toContain('AUTH_REQUIRED');
  });

  it('exits 0 with the envelope for an ok call and 1 for a failed one', async () => {
    const ok = await run(['call', 'record_create', '--input', '{"name":"cli one"}', '--request-id', 'cli-1']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, effect: 'changed', request_id: 'cli-1' });
    const again = await run([
      'call',
      'record_create',
      '--input',
      '{"name":"cli one"}',
      '--request-id',
      'cli-1',
    ]);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, effect: 'existing' });
    const bad = await run(['call', 'record_create', '--input', '{"name":7}']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error.code).toBe('BAD_INPUT');
  });

  it('exits 4 with APPROVAL_PENDING for a held call, and lift runs lists its run as held', async () => {
    const held = await run([
      'call',
      'notice_publish',
      '--input',
      '{"name":"exit four","request_id":"cli-held-4"}',
    ]);
    expect(held.code, held.stderr).toBe(4);
    const envelope = JSON.parse(held.stdout);
    expect(envelope).toMatchObject({
      ok: false,
      error: { code: 'APPROVAL_PENDING', details: { approval_id: envelope.pending.approval_id } },
    });
    const runs = await run(['runs']);
    const line = runs.stdout.split('\n').find((each) => each.startsWith(envelope.run_id));
    expect(line).toMatch(/\bheld\b/);
  }, 180_000);

  it('asks each held call of a tool for a phrase that names its input: one call’s phrase does not sign another', async () => {
    const hold = async (requestId: string) =>
      JSON.parse((await run(['call', 'record_purge', '--input', `{"request_id":"${requestId}"}`])).stdout);
    const first = await hold('cli-purge-1');
    const second = await hold('cli-purge-2');
    expect(first.pending.confirmation_phrase).toBe(`record_purge ${first.pending.input_digest}`);
    expect(second.pending.confirmation_phrase).not.toBe(first.pending.confirmation_phrase);
    const listed = await run(['approvals']);
    expect(listed.stdout).toContain(`input digest: ${second.pending.input_digest}`);
    const wrong = await run([
      'approve',
      second.pending.approval_id,
      '--phrase',
      first.pending.confirmation_phrase,
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('CONFIRMATION_MISMATCH');
  }, 180_000);

  it('runs a held call exactly once when two people approve it at the same time', async () => {
    const held = JSON.parse(
      (await run(['call', 'notice_publish', '--input', '{"name":"twice","request_id":"cli-held"}'])).stdout,
    );
    const id = held.pending.approval_id as string;
    expect((await run(['approvals'])).stdout).toContain(id);
    const before = readSystem(system).records.length;
    const [a, b] = await Promise.all([run(['approve', id, '--json']), run(['approve', id, '--json'])]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(JSON.parse(a.stdout).fields).toEqual(JSON.parse(b.stdout).fields);
    expect(readSystem(system).records.length).toBe(before + 1);
  });

  it('answers outcome unknown with the settle read after the caller was killed mid-write', async () => {
    const child = startLift(
      ['call', 'record_create', '--input', '{"name":"killed","delay_ms":1500}', '--request-id', 'cli-kill'],
      { cwd: dir.path, env },
    );
    const written = () => {
      try {
        return readSystem(system).records.some((r) => r.name === 'killed');
      } catch {
        return false; // the tool is writing the file right now
      }
    };
    for (let i = 0; i < 200 && !written(); i++) await sleep(50);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));
    const retry = await run([
      'call',
      'record_create',
      '--input',
      '{"name":"killed","delay_ms":1500}',
      '--request-id',
      'cli-kill',
    ]);
    const envelope = JSON.parse(retry.stdout);
    expect(envelope.error.code).toBe('OUTCOME_UNKNOWN');
    expect(envelope.error.outcome).toBe('unknown');
    expect(envelope.error.settle).toContain('record_list');
    expect(readSystem(system).records.filter((r) => r.name === 'killed')).toHaveLength(1);
  });

  it('lists runs and shows one with its events', async () => {
    const runs = JSON.parse((await run(['runs', '--json'])).stdout) as Array<{ id: string }>;
    expect(runs.length).toBeGreaterThan(0);
    const shown = JSON.parse((await run(['runs', 'show', runs[0]!.id, '--json'])).stdout);
    expect(shown.events.length).toBeGreaterThan(0);
    expect(shown.model_events).toBe(0);
  });

  it('stores a secret from standard input and never prints it', async () => {
    const set = await run(['secrets', 'set', 'canary_password'], 'canary-cli-4411\n');
    expect(set.code).toBe(0);
    expect(set.stdout).not.toContain('canary-cli-4411');
    const echo = await run(['call', 'secret_echo', '--input', '{}']);
    expect(echo.stdout).not.toContain('canary-cli-4411');
    expect(JSON.parse(echo.stdout).ok).toBe(true);
  });
});
