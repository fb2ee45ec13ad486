import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isError, isPending, isSuccess } from '../../../src/contract/envelope.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';
import { type MailWorld, ME, OPS, startMailWorld } from './world.js';

// A submission server that takes the whole message and then says nothing for 20 s: the one moment
// where the sender cannot know whether the mail went (Postfix queues it anyway once the pause is over).
let world: MailWorld;
let runtime: Runtime;
const home = tempDir('lift-email-timeout-');

beforeAll(async () => {
  world = await startMailWorld({ postfixMain: 'smtpd_end_of_data_restrictions = sleep 20, permit\n' });
  runtime = new Runtime({
    home: home.path,
    env: world.env,
    tools: world.tools({ deadlineMs: 12_000, deliveryWaitMs: 0 }),
  });
});
afterAll(async () => {
  await runtime?.close();
  await world?.stop();
  home.remove();
});

describe('a send whose outcome is unknown', () => {
  it('times out with the settle read, refuses a blind retry, and the read settles it', async () => {
    const saved = await runtime.invoke('email_draft_save', {
      to: [OPS.user],
      subject: `Stalled ${randomBytes(3).toString('hex')}`,
      body: 'This one meets a server that never answers the end of DATA.',
      request_id: 'draft-stall-0001',
    });
    if (!isSuccess(saved)) throw new Error(JSON.stringify(saved));
    const messageId = saved.fields.message_id as string;
    const held = await runtime.invoke('email_draft_send', {
      draft_id: saved.fields.draft_id,
      request_id: 'send-stall-0001',
    });
    if (!isPending(held)) throw new Error(JSON.stringify(held));

    const timedOut = await runtime.approve(held.pending.approval_id, {
      phrase: held.pending.confirmation_phrase!,
    });
    if (!isError(timedOut)) throw new Error(JSON.stringify(timedOut));
    expect(timedOut.error).toMatchObject({ code: 'TIMEOUT', outcome: 'unknown', retry: 'after_check' });
    expect(timedOut.error.settle).toMatch(
      /^email_find with message_id .* in folder "Sent", and with mailbox/,
    );

    const retried = await runtime.invoke('email_draft_send', {
      draft_id: saved.fields.draft_id,
      request_id: 'send-stall-0001',
    });
    expect(isError(retried) && retried.error).toMatchObject({
      code: 'OUTCOME_UNKNOWN',
      settle: timedOut.error.settle,
    });

    // Lift never got to file it in Sent, and the draft is still there: only the recipient's mailbox
    // can tell, and the settle read finds it there once the server has delivered it.
    const inSent = await runtime.invoke('email_find', { folder: 'Sent', message_id: messageId });
    expect(isSuccess(inSent) && inSent.fields.total).toBe(0);
    const inDrafts = await runtime.invoke('email_find', { folder: 'Drafts', message_id: messageId });
    expect(isSuccess(inDrafts) && inDrafts.fields.total).toBe(1);
    const bound = Date.now() + 30_000;
    for (;;) {
      const delivered = await runtime.invoke('email_find', {
        mailbox: OPS.user,
        folder: 'INBOX',
        message_id: messageId,
      });
      if (!isSuccess(delivered)) throw new Error(JSON.stringify(delivered));
      if (delivered.fields.total === 1) break;
      if (Date.now() > bound) throw new Error(`Never delivered:\n${world.postfix.log()}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(await world.uidsWith(ME, 'Sent', messageId)).toEqual([]);

    const stranger = await runtime.invoke('email_find', { mailbox: 'boss@example.test', folder: 'INBOX' });
    expect(isError(stranger) && stranger.error.code).toBe('POLICY_BLOCKED');
  }, 90_000);
});
