import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Envelope,
  isError,
  isPending,
  isSuccess,
  type SuccessEnvelope,
} from '../../../src/contract/envelope.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';
import { type MailWorld, ME, OPS, startMailWorld, writtenFiles } from './world.js';

let world: MailWorld;
let runtime: Runtime;
const home = tempDir('lift-email-home-');
const envelopes: Envelope[] = [];
let report: Buffer;

beforeAll(async () => {
  world = await startMailWorld();
  report = randomBytes(50_000);
  writeFileSync(join(world.work, 'report.pdf'), report);
  runtime = new Runtime({ home: home.path, env: world.env, tools: world.tools() });
});
afterAll(async () => {
  await runtime?.close();
  await world?.stop();
  home.remove();
});

async function call(tool: string, input: unknown): Promise<Envelope> {
  const envelope = await runtime.invoke(tool, input);
  envelopes.push(envelope);
  return envelope;
}

function success(envelope: Envelope): SuccessEnvelope {
  if (!isSuccess(envelope)) throw new Error(JSON.stringify(envelope, null, 2));
  expect(envelope.checks.filter((check) => !check.passed)).toEqual([]);
  expect(envelope.ok).toBe(true);
  return envelope;
}

async function saveDraft(requestId: string, extra: Record<string, unknown> = {}) {
  return success(
    await call('email_draft_save', {
      to: [OPS.user],
      subject: 'Weekly report',
      body: 'Hello ops,\n\nthe weekly report is attached.\n\nLift',
      attachments: [join(world.work, 'report.pdf')],
      request_id: requestId,
      ...extra,
    }),
  );
}

/** Holds the send, checks what the person would read, and signs it off. */
async function approveSend(draftId: string, requestId: string) {
  const held = await call('email_draft_send', { draft_id: draftId, request_id: requestId });
  if (!isPending(held)) throw new Error(JSON.stringify(held, null, 2));
  expect(held.pending.gate).toBe('signature');
  const sent = await runtime.approve(held.pending.approval_id, {
    by: 'ana (test)',
    phrase: held.pending.confirmation_phrase!,
  });
  envelopes.push(sent);
  return { held, sent };
}

describe('email drafts on Dovecot and Postfix', () => {
  it('saves a draft with an attachment and reads it back by UID', async () => {
    const saved = await saveDraft('draft-weekly-0001', {
      html: '<p>Hello <b>ops</b>, the report is attached.</p>',
    });
    expect(saved.fields).toMatchObject({
      folder: 'Drafts',
      has_html: true,
      to: [OPS.user],
      subject: 'Weekly report',
      attachments: [{ name: 'report.pdf', size: report.length }],
    });
    expect(saved.checks.map((check) => check.name)).toEqual([
      'headers read back',
      'body sha256 read back',
      'attachment count',
      'attachment report.pdf',
    ]);
    const messageId = saved.fields.message_id as string;
    expect(await world.uidsWith(ME, 'Drafts', messageId)).toEqual([saved.fields.uid]);
  });

  it('sends only after a signature, delivers to the local mailbox, and files the draft in Sent', async () => {
    const saved = await saveDraft('draft-weekly-0002');
    const draftId = saved.fields.draft_id as string;
    const messageId = saved.fields.message_id as string;
    const held = await call('email_draft_send', { draft_id: draftId, request_id: 'send-weekly-0002' });
    if (!isPending(held)) throw new Error(JSON.stringify(held));
    // Nothing goes before the yes, and the preview is the saved draft's own content.
    expect(await world.uidsWith(OPS, 'INBOX', messageId)).toEqual([]);
    expect(held.pending.preview).toContain(`To: ${OPS.user}`);
    expect(held.pending.preview).toContain('Subject: Weekly report');
    expect(held.pending.preview).toContain(`report.pdf (${report.length.toLocaleString('en-US')} bytes)`);
    expect(held.pending.preview).toContain('  | Hello ops,');
    expect((await runtime.store.approvals.get(held.pending.approval_id))?.digest).toMatch(/^[0-9a-f]{64}$/);

    const wrong = runtime.approve(held.pending.approval_id, { phrase: 'yes' });
    await expect(wrong).rejects.toMatchObject({ code: 'CONFIRMATION_MISMATCH' });
    const sent = success(
      await runtime.approve(held.pending.approval_id, {
        by: 'ana (test)',
        phrase: held.pending.confirmation_phrase!,
      }),
    );
    envelopes.push(sent);
    expect(sent.fields).toMatchObject({
      message_id: messageId,
      accepted: [OPS.user],
      rejected: [],
      sent_folder: 'Sent',
      approved_by: 'ana (test)',
      deliveries: [{ address: OPS.user, by: 'mailbox', found: true, folder: 'INBOX' }],
    });
    expect(sent.fields.smtp_response).toMatch(/^250 /);
    expect(await world.uidsWith(OPS, 'INBOX', messageId)).toHaveLength(1);
    expect(await world.uidsWith(ME, 'Drafts', messageId)).toEqual([]);
    expect(await world.uidsWith(ME, 'Sent', messageId)).toHaveLength(1);

    const audit = (await runtime.store.runs.events(sent.run_id)).find(
      (event) => event.type === 'audit-recorded' && event.effect === 'email_sent',
    );
    expect(audit).toMatchObject({
      approved_by: 'ana (test)',
      approval_id: held.pending.approval_id,
      to: [OPS.user],
      message_id: messageId,
      queue_id: sent.fields.queue_id,
    });
  });

  it('answers a repeat with the same request id with the first send, and sends nothing again', async () => {
    const saved = await saveDraft('draft-weekly-0003');
    const { sent } = await approveSend(saved.fields.draft_id as string, 'send-weekly-0003');
    const first = success(sent);
    const again = await call('email_draft_send', {
      draft_id: saved.fields.draft_id,
      request_id: 'send-weekly-0003',
    });
    if (!isSuccess(again)) throw new Error(JSON.stringify(again));
    expect(again.effect).toBe('existing');
    expect(again.fields.message_id).toBe(first.fields.message_id);
    expect(await world.uidsWith(OPS, 'INBOX', first.fields.message_id as string)).toHaveLength(1);

    const fresh = await call('email_draft_send', {
      draft_id: saved.fields.draft_id,
      request_id: 'send-weekly-0003b',
    });
    expect(isError(fresh) && fresh.error).toMatchObject({ code: 'NOT_FOUND', outcome: 'not_started' });
    expect(isError(fresh) && fresh.error.message).toContain('it was sent');
  });

  it('refuses to send a draft that changed after the approval', async () => {
    const saved = await saveDraft('draft-weekly-0004');
    const draftId = saved.fields.draft_id as string;
    const held = await call('email_draft_send', { draft_id: draftId, request_id: 'send-weekly-0004' });
    if (!isPending(held)) throw new Error(JSON.stringify(held));
    const edited = await saveDraft('draft-weekly-0004-edit', {
      draft_id: draftId,
      body: 'Changed after the yes.',
    });
    expect(edited.fields.draft_id).toBe(draftId);
    expect(edited.fields.replaced_uids).toEqual([saved.fields.uid]);

    const refused = await runtime.approve(held.pending.approval_id, {
      phrase: held.pending.confirmation_phrase!,
    });
    envelopes.push(refused);
    expect(isError(refused) && refused.error).toMatchObject({
      code: 'APPROVAL_STALE',
      outcome: 'not_started',
    });
    expect(await world.uidsWith(OPS, 'INBOX', edited.fields.message_id as string)).toEqual([]);

    const again = await call('email_draft_send', { draft_id: draftId, request_id: 'send-weekly-0004b' });
    expect(isPending(again) && again.pending.preview).toContain('  | Changed after the yes.');
  });

  it('finds messages by folder, sender, subject and date, capped with the rest on disk', async () => {
    for (const n of [1, 2, 3]) {
      await saveDraft(`draft-find-000${n}`, { subject: `Find me ${n}`, attachments: [] });
    }
    const today = new Date().toISOString().slice(0, 10);
    const bySubject = success(await call('email_find', { folder: 'Drafts', subject: 'Find me', limit: 2 }));
    expect(bySubject.fields.total).toBe(3);
    expect((bySubject.fields.messages as Array<{ subject: string }>).map((m) => m.subject)).toEqual([
      'Find me 3',
      'Find me 2',
    ]);
    expect(bySubject.truncated).toBe(true);
    expect(readFileSync(bySubject.files.all!, 'utf8').trim().split('\n')).toHaveLength(3);

    const inbox = success(
      await runtime.invoke('email_find', { folder: 'INBOX', from: ME.user, since: today }),
    );
    expect(inbox.fields.total).toBe(0); // my own inbox holds nothing from me
    const sent = success(
      await call('email_find', { folder: 'Sent', from: ME.user, subject: 'Weekly', since: today }),
    );
    expect(sent.fields.total).toBeGreaterThanOrEqual(2);
    expect((sent.fields.messages as Array<{ attachments: string[] }>)[0]?.attachments).toEqual([
      'report.pdf',
    ]);
    const before = success(await call('email_find', { folder: 'Sent', before: '2000-01-01' }));
    expect(before.fields.total).toBe(0);
  });

  it('refuses HTML with a script in it before anything is saved', async () => {
    const refused = await call('email_draft_save', {
      to: [OPS.user],
      subject: 'x',
      body: 'x',
      html: '<p onclick="steal()">hi</p>',
      request_id: 'draft-html-0001',
    });
    expect(isError(refused) && refused.error).toMatchObject({ code: 'BAD_INPUT', outcome: 'not_started' });
  });

  it('refuses an attachment outside the folders it may read', async () => {
    const outside = await call('email_draft_save', {
      to: [OPS.user],
      subject: 'Secrets',
      body: 'x',
      attachments: ['/etc/passwd'],
      request_id: 'draft-outside-0001',
    });
    expect(isError(outside) && outside.error).toMatchObject({ code: 'BAD_INPUT', outcome: 'not_started' });
    const home = await call('email_draft_save', {
      to: [OPS.user],
      subject: 'Secrets',
      body: 'x',
      attachments: [join(runtime.home, 'secrets.json')],
      request_id: 'draft-outside-0002',
    });
    expect(isError(home)).toBe(true);
  });

  it('answers AUTH_REQUIRED when the server refuses the stored password', async () => {
    const wrongHome = tempDir('lift-email-wrong-');
    const wrong = new Runtime({
      home: wrongHome.path,
      env: { LIFT_SECRET_EMAIL_PASSWORD: 'not-the-password' },
      tools: world.tools(),
    });
    try {
      const saved = await wrong.invoke('email_draft_save', {
        to: [OPS.user],
        subject: 'x',
        body: 'x',
        request_id: 'draft-wrong-0001',
      });
      expect(isError(saved) && saved.error).toMatchObject({ code: 'AUTH_REQUIRED', outcome: 'not_started' });
      const found = await wrong.invoke('email_find', { folder: 'INBOX' });
      expect(isError(found) && found.error.code).toBe('AUTH_REQUIRED');
    } finally {
      await wrong.close();
      wrongHome.remove();
    }
  });

  it('never lets a password reach an envelope, the run log or a file Lift wrote', () => {
    const text = JSON.stringify(envelopes) + writtenFiles(runtime.home);
    expect(envelopes.length).toBeGreaterThan(10);
    for (const password of [ME.password, OPS.password]) expect(text).not.toContain(password);
  });
});
