import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { isPending, type PendingEnvelope } from '../../src/contract/envelope.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { board, copyOldHome } from '../store/home-0.1.0.js';
import { lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { boardTools, posts } from './fixtures/board-tools.js';

const dir = tempDir('lift-approve-recovery-');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  dir.remove();
});
let cases = 0;

function setup(): { home: string; board: string; runtime: Runtime } {
  cases += 1;
  const home = join(dir.path, `home-${cases}`);
  const file = join(dir.path, `board-${cases}.json`);
  return { home, board: file, runtime: new Runtime({ home, tools: boardTools(file) }) };
}

async function hold(runtime: Runtime, tool: string, input: Record<string, unknown>): Promise<string> {
  const held = await runtime.invoke(tool, input);
  if (!isPending(held)) throw new Error(`expected a held call, got ${JSON.stringify(held)}`);
  return (held as PendingEnvelope).pending.approval_id;
}

/** Starts `approve-child.ts` for the approval and kills it -9 as soon as `when` holds. */
async function killApproverWhen(
  home: string,
  file: string,
  approvalId: string,
  pauses: { waitMs: number; holdMs: number },
  when: () => boolean,
): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'fixtures', 'approve-child.ts'),
      home,
      file,
      approvalId,
      String(pauses.waitMs),
      String(pauses.holdMs),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (const until = Date.now() + 60_000; !when(); await sleep(10)) {
    if (Date.now() > until) throw new Error('the approver never reached the moment to kill it');
  }
  child.kill('SIGKILL');
  await exited;
}

describe('an approved call whose approver was killed', () => {
  it('reports the landed write (effect existing) after the settle read, and never posts twice', async () => {
    const { home, board: file, runtime } = setup();
    try {
      const id = await hold(runtime, 'board_post', { text: 'landed', request_id: 'post-landed-1' });
      await killApproverWhen(home, file, id, { waitMs: 0, holdMs: 30_000 }, () => posts(file).length > 0);
      const approval = await runtime.store.approvals.get(id);
      expect(approval?.state).toBe('approved');
      expect(approval?.owner?.pid).toBeGreaterThan(0);

      const envelope = await runtime.approve(id);
      expect(envelope).toMatchObject({ ok: true, effect: 'existing', fields: { number: 1 } });
      expect(posts(file)).toEqual(['post-landed-1 landed']);
      const types = (await runtime.store.runs.events(envelope.run_id)).map((event) => event.type);
      expect(types).toContain('ledger-reclaimed');
      expect(
        (await runtime.store.runs.events(envelope.run_id)).find((event) => event.type === 'settle-read-end'),
      ).toMatchObject({
        landed: true,
      });
      expect((await runtime.store.approvals.get(id))?.state).toBe('executed');
      expect(await runtime.approve(id)).toEqual(envelope);
    } finally {
      await runtime.close();
    }
  }, 90_000);

  it('runs the call once when the settle read finds that nothing landed', async () => {
    const { home, board: file, runtime } = setup();
    try {
      const id = await hold(runtime, 'board_post', { text: 'late', request_id: 'post-late-1' });
      // Killed while the approved post waits, after it claimed the request id, before it sent anything.
      await killApproverWhen(
        home,
        file,
        id,
        { waitMs: 30_000, holdMs: 0 },
        () => runtime.store.ledger.state('board_post', 'post-late-1') === 'in_flight',
      );
      expect(posts(file)).toEqual([]);
      const envelope = await runtime.approve(id);
      expect(envelope).toMatchObject({ ok: true, effect: 'changed', fields: { number: 1 } });
      expect(posts(file)).toEqual(['post-late-1 late']);
      expect(
        (await runtime.store.runs.events(envelope.run_id)).find((event) => event.type === 'settle-read-end'),
      ).toMatchObject({
        landed: false,
      });
    } finally {
      await runtime.close();
    }
  }, 90_000);

  it('answers OUTCOME_UNKNOWN at once, and for good, when the tool has no settle read', async () => {
    const { home, board: file, runtime } = setup();
    try {
      const id = await hold(runtime, 'board_post_blind', { text: 'blind', request_id: 'post-blind-1' });
      await killApproverWhen(home, file, id, { waitMs: 0, holdMs: 30_000 }, () => posts(file).length > 0);
      const envelope = await runtime.approve(id);
      expect(envelope).toMatchObject({ ok: false, error: { code: 'OUTCOME_UNKNOWN', outcome: 'unknown' } });
      expect(JSON.stringify(envelope)).toContain('settle read');
      expect((await runtime.store.approvals.get(id))?.state).toBe('executed');
      expect(await runtime.approve(id)).toEqual(envelope);
      expect(posts(file)).toHaveLength(1);
    } finally {
      await runtime.close();
    }
  }, 90_000);
});

describe('an approval that Lift 0.1.0 left stuck (approved, its approver dead)', () => {
  it('is listed as in flight with its owner gone, cannot be denied, and lift approve settles it once', async () => {
    const old = copyOldHome(join(dir.path, 'old'));
    const config = join(dir.path, 'old', 'lift.config.json');
    writeFileSync(
      config,
      JSON.stringify({ tools: [join(import.meta.dirname, '..', 'store', 'home-0.1.0.ts')] }),
    );
    const cwd = join(dir.path, 'old');
    const env = { LIFT_HOME: old.home, LIFT_TEST_SYSTEM: old.system };

    const listed = JSON.parse((await lift(['approvals', '--json'], { cwd, env })).stdout) as Array<{
      id: string;
      state: string;
      in_flight?: boolean;
      owner_gone?: boolean;
    }>;
    expect(listed.find((approval) => approval.id === old.stuck)).toMatchObject({
      state: 'approved',
      in_flight: true,
      owner_gone: true,
    });
    const text = (await lift(['approvals'], { cwd, env })).stdout;
    expect(text).toContain('is gone');

    const denied = await lift(['deny', old.stuck], { cwd, env });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('gone');
    expect(denied.stderr).toContain('may have landed');

    const approved = await lift(['approve', old.stuck, '--json'], { cwd, env, timeoutMs: 30_000 });
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ ok: true, effect: 'changed' });
    expect(board(old.system).filter((line) => line.startsWith('fixture-notice-2 '))).toHaveLength(1);
    const again = await lift(['approve', old.stuck, '--json'], { cwd, env, timeoutMs: 30_000 });
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(approved.stdout));
    expect(board(old.system).filter((line) => line.startsWith('fixture-notice-2 '))).toHaveLength(1);
  }, 120_000);
});
