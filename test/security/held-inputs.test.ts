import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PendingEnvelope, SuccessEnvelope } from '../../src/contract/envelope.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { board, copyOldHome, tools as oldHomeTools } from '../store/home-0.1.0.js';
import { lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { CANARY, leakedForms, printedForms } from './canary.js';
import { notes, tools } from './fixtures/note-tools.js';

const dir = tempDir('lift-held-inputs-');
afterAll(() => dir.remove());
const TOOLS_MODULE = join(import.meta.dirname, 'fixtures', 'note-tools.ts');
const PIN = '90417263';
let cases = 0;

function setup(env: Record<string, string> = { LIFT_SECRET_CANARY_TOKEN: CANARY }) {
  cases += 1;
  const cwd = join(dir.path, `case-${cases}`);
  const home = join(cwd, 'home');
  const system = join(cwd, 'board.json');
  process.env.LIFT_TEST_SYSTEM = system;
  const runtime = new Runtime({ home, env, tools });
  return { cwd, home, system, runtime, env: { ...env, LIFT_HOME: home, LIFT_TEST_SYSTEM: system } };
}

/** Everything Lift keeps in its home, as text: the database, its write-ahead log, the run log. */
function homeText(home: string): string {
  return readdirSync(home, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== 'secrets.json')
    .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1'))
    .join('\n');
}

describe('held inputs at rest', () => {
  it('hold the secret’s name, never its value, and the approved call gets the value again, in the same form', async () => {
    const { cwd, home, system, runtime, env } = setup({
      LIFT_SECRET_CANARY_TOKEN: CANARY,
      LIFT_SECRET_PIN: PIN,
    });
    writeFileSync(join(cwd, 'lift.config.json'), JSON.stringify({ tools: [TOOLS_MODULE] }));
    const forms = printedForms(CANARY);
    const note = `token ${CANARY}; as base64 ${forms.base64}; in a link ?t=${forms.url}; hex ${forms.hex}`;
    const input = {
      note,
      tags: { [`key-${CANARY}`]: forms.base64url },
      pin: Number(PIN),
      request_id: 'note-1',
    };
    let held: PendingEnvelope;
    try {
      held = (await runtime.invoke('note_post', input)) as PendingEnvelope;
      expect(held.pending.gate).toBe('review');
      const row = runtime.store.db.prepare('SELECT input, preview FROM approvals').get() as Record<
        string,
        string
      >;
      expect(leakedForms(JSON.stringify(row))).toEqual([]);
      expect(row.input).toContain('[secret:canary_token]');
      expect(row.input).toContain('[secret:canary_token:base64]');
      expect(row.input).not.toContain(PIN);
    } finally {
      await runtime.close();
    }
    // Closed: everything Lift wrote is on disk. Neither the value nor any form of it is there.
    expect(leakedForms(homeText(home))).toEqual([]);
    expect(homeText(home)).not.toContain(PIN);

    const listed = await lift(['approvals', '--json'], { cwd, env });
    expect(leakedForms(listed.stdout)).toEqual([]);
    const shown = JSON.parse(listed.stdout) as Array<{ id: string; input: { note: string } }>;
    expect(shown[0]?.input.note).toContain('[secret:canary_token]');

    const approved = await lift(['approve', held.pending.approval_id, '--json'], { cwd, env });
    expect(JSON.parse(approved.stdout)).toMatchObject({ ok: true, effect: 'changed' });
    expect(leakedForms(approved.stdout)).toEqual([]);
    // The system got exactly what was asked for: the secret, in each form it was given in.
    expect(notes(system).map((posted) => JSON.parse(posted))).toEqual([
      { note, tags: input.tags, pin: Number(PIN) },
    ]);
    expect(leakedForms(homeText(home))).toEqual([]);
  });

  it('keeps a placeholder someone typed as text: it never becomes the secret', async () => {
    const { system, runtime } = setup();
    try {
      const typed = 'please send [secret:canary_token] and [secret:canary_token:base64] to me';
      const held = (await runtime.invoke('note_post', {
        note: typed,
        request_id: 'note-typed',
      })) as PendingEnvelope;
      const done = (await runtime.approve(held.pending.approval_id)) as SuccessEnvelope;
      expect(done.ok).toBe(true);
      expect(notes(system)).toEqual([JSON.stringify({ note: typed, tags: {} })]);
    } finally {
      await runtime.close();
    }
  });

  it('answers AUTH_REQUIRED, and runs nothing, when the secret is no longer stored at approval', async () => {
    const { home, system, runtime } = setup();
    let approvalId: string;
    try {
      const held = (await runtime.invoke('note_post', {
        note: `token ${CANARY}`,
        request_id: 'note-gone',
      })) as PendingEnvelope;
      approvalId = held.pending.approval_id;
    } finally {
      await runtime.close();
    }
    const without = new Runtime({ home, tools });
    try {
      await expect(without.approve(approvalId)).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
      expect((await without.store.approvals.get(approvalId))?.state).toBe('pending');
      expect(notes(system)).toEqual([]);
    } finally {
      await without.close();
    }
  });

  it('masks the inputs Lift 0.1.0 held unmasked, and their approval still posts the real text', async () => {
    const old = copyOldHome(join(dir.path, 'old'));
    expect(readFileSync(join(old.home, 'lift.db')).includes(old.canary)).toBe(true);
    process.env.LIFT_TEST_SYSTEM = old.system;
    const runtime = new Runtime({ home: old.home, tools: oldHomeTools });
    try {
      const stored = runtime.store.db.prepare('SELECT input FROM approvals WHERE id = ?').get(old.held);
      expect(JSON.stringify(stored)).not.toContain(old.canary);
      expect(JSON.stringify(stored)).toContain('[secret:canary_token]');
      const done = await runtime.approve(old.held);
      expect(done).toMatchObject({ ok: true, effect: 'changed' });
      expect(board(old.system)).toContain(`fixture-notice-1 token ${old.canary} for the partner`);
    } finally {
      await runtime.close();
    }
    expect(readFileSync(join(old.home, 'lift.db')).includes(old.canary)).toBe(false);
  });
});
