import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
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
import { writtenFiles } from '../email/world.js';
import { ANA, type ChatWorld, ME, startChatWorld } from './world.js';

let world: ChatWorld;
let me: Runtime;
let ana: Runtime;
const homes = [tempDir('lift-chat-me-'), tempDir('lift-chat-ana-')];
const envelopes: Envelope[] = [];
let chart: Buffer;
let chartPath: string;

beforeAll(async () => {
  world = await startChatWorld();
  chart = randomBytes(40_000);
  chartPath = join(world.work, 'chart.png');
  writeFileSync(chartPath, chart);
  me = new Runtime({ home: homes[0]!.path, env: world.env(ME), tools: world.tools(ME) });
  ana = new Runtime({ home: homes[1]!.path, env: world.env(ANA), tools: world.tools(ANA) });
});
afterAll(async () => {
  await me?.close();
  await ana?.close();
  await world?.stop();
  for (const home of homes) home.remove();
});

function success(envelope: Envelope): SuccessEnvelope {
  envelopes.push(envelope);
  if (!isSuccess(envelope)) throw new Error(JSON.stringify(envelope, null, 2));
  expect(envelope.checks.filter((check) => !check.passed)).toEqual([]);
  return envelope;
}

/** Calls a review-gated tool, checks it was held, and approves it. */
async function reviewed(tool: string, input: Record<string, unknown>) {
  const held = await me.invoke(tool, input);
  envelopes.push(held);
  if (!isPending(held)) throw new Error(JSON.stringify(held, null, 2));
  expect(held.pending.gate).toBe('review');
  return { held, done: success(await me.approve(held.pending.approval_id, { by: 'ana (reviewer)' })) };
}

/** What another account reads of a room, through its own Lift. */
async function seenByAna(to: string, messageId: string) {
  const read = success(await ana.invoke('chat_history', { to, message_id: messageId }));
  return (read.fields.messages as Array<Record<string, unknown>>)[0];
}

describe('team chat on Prosody', () => {
  it('holds a post with a file for review, then reads it back from the archive and the upload', async () => {
    const input = {
      to: '#team',
      message: 'The chart for this week.',
      file: chartPath,
      request_id: 'post-chart-0001',
    };
    const { held, done } = await reviewed('chat_post', input);
    expect(held.pending.preview).toContain(`Post to room ${world.team} as me:`);
    expect(held.pending.preview).toContain('  | The chart for this week.');
    expect(held.pending.preview).toContain(`File: chart.png (${chart.length.toLocaleString('en-US')} bytes`);

    const file = done.fields.file as { url: string; sha256: string; size: number };
    expect(done.fields).toMatchObject({ to: world.team, kind: 'room', client_id: 'post-chart-0001' });
    expect(file.size).toBe(chart.length);
    expect(done.checks.map((check) => check.name)).toEqual([
      `archive holds message ${done.fields.message_id}`,
      'archived message links the upload',
      `${file.url} serves the uploaded bytes`,
    ]);
    const served = Buffer.from(await (await fetch(file.url)).arrayBuffer());
    expect(createHash('sha256').update(served).digest('hex')).toBe(
      createHash('sha256').update(chart).digest('hex'),
    );
    expect(await seenByAna(world.team, done.fields.message_id as string)).toMatchObject({
      from: `${world.team}/me`,
      body: `The chart for this week.\n${file.url}`,
      url: file.url,
      retracted: false,
    });

    const audit = (await me.store.runs.events(done.run_id)).find((event) => event.type === 'audit-recorded');
    expect(audit).toMatchObject({
      effect: 'chat_posted',
      approved_by: 'ana (reviewer)',
      message_id: done.fields.message_id,
    });

    const again = await me.invoke('chat_post', input);
    expect(isSuccess(again) && again.effect).toBe('existing');
    expect(isSuccess(again) && again.fields.message_id).toBe(done.fields.message_id);
  });

  it('undoes a post by retraction where the room supports it, leaving a tombstone in the archive', async () => {
    const { done: posted } = await reviewed('chat_post', {
      to: '#team',
      message: 'Wrong room, sorry.',
      request_id: 'post-oops-0001',
    });
    const { held, done } = await reviewed('chat_undo', {
      undo: posted.fields.undo,
      request_id: 'undo-oops-0001',
    });
    expect(held.pending.preview).toContain('  | Wrong room, sorry.');
    expect(done.fields).toMatchObject({ method: 'retracted', how: expect.stringContaining('XEP-0425') });
    const seen = await seenByAna(world.team, posted.fields.message_id as string);
    expect(seen).toMatchObject({ retracted: true });
    expect(seen?.body).toBeUndefined();
  });

  it('undoes a post by a correction where the room offers no retraction, and says so', async () => {
    const { done: posted } = await reviewed('chat_post', {
      to: world.plain,
      message: 'Draft numbers: 42',
      request_id: 'post-plain-0001',
    });
    const { done } = await reviewed('chat_undo', { undo: posted.fields.undo, request_id: 'undo-plain-0001' });
    expect(done.fields).toMatchObject({ method: 'corrected', how: expect.stringContaining('XEP-0308') });
    const correction = await seenByAna(world.plain, done.fields.notice_id as string);
    expect(correction).toMatchObject({ replaces: 'post-plain-0001', body: '(withdrawn: Posted in error)' });
  });

  it('posts to a person, found by the id the account archive gave it', async () => {
    const { done } = await reviewed('chat_post', {
      to: ANA.jid,
      message: 'Hello Ana',
      request_id: 'post-ana-0001',
    });
    expect(done.fields).toMatchObject({ kind: 'person', to: ANA.jid });
    const read = success(await ana.invoke('chat_history', { to: ME.jid, message_id: 'post-ana-0001' }));
    expect((read.fields.messages as Array<{ body: string }>).map((message) => message.body)).toEqual([
      'Hello Ana',
    ]);
  });

  it('refuses to post a file that changed after the approval', async () => {
    const path = join(world.work, 'numbers.csv');
    writeFileSync(path, 'a,b\n1,2\n');
    const held = await me.invoke('chat_post', {
      to: '#team',
      message: 'Numbers',
      file: path,
      request_id: 'post-stale-0001',
    });
    if (!isPending(held)) throw new Error(JSON.stringify(held));
    writeFileSync(path, 'a,b\n1,3\n');
    const refused = await me.approve(held.pending.approval_id);
    envelopes.push(refused);
    expect(isError(refused) && refused.error).toMatchObject({
      code: 'APPROVAL_STALE',
      outcome: 'not_started',
    });
    const history = success(await me.invoke('chat_history', { to: '#team', message_id: 'post-stale-0001' }));
    expect(history.fields.messages).toEqual([]);
  });

  it('fails a post to a room that does not exist before holding it, and reads the room history capped', async () => {
    const missing = await me.invoke('chat_post', {
      to: '#nowhere',
      message: 'x',
      request_id: 'post-missing-0001',
    });
    expect(isError(missing) && missing.error).toMatchObject({ code: 'NOT_FOUND', outcome: 'not_started' });
    expect(await me.store.approvals.list(['pending'])).toHaveLength(0);
    const last = success(await me.invoke('chat_history', { to: '#team', limit: 2 }));
    expect((last.fields.messages as unknown[]).length).toBe(2);
  });

  it('answers AUTH_REQUIRED when the server refuses the stored password', async () => {
    const home = tempDir('lift-chat-wrong-');
    const wrong = new Runtime({
      home: home.path,
      env: { LIFT_SECRET_CHAT_PASSWORD: 'wrong-password' },
      tools: world.tools(ME),
    });
    try {
      const read = await wrong.invoke('chat_history', { to: '#team' });
      expect(isError(read) && read.error).toMatchObject({ code: 'AUTH_REQUIRED', outcome: 'not_started' });
      const post = await wrong.invoke('chat_post', {
        to: '#team',
        message: 'x',
        request_id: 'post-wrong-0001',
      });
      expect(isError(post) && post.error.code).toBe('AUTH_REQUIRED');
    } finally {
      await wrong.close();
      home.remove();
    }
  });

  it('never lets a password reach an envelope, the run log or a file Lift wrote', () => {
    const text = JSON.stringify(envelopes) + writtenFiles(me.home) + writtenFiles(ana.home);
    expect(envelopes.length).toBeGreaterThan(10);
    for (const password of [ME.password, ANA.password]) expect(text).not.toContain(password);
  });
});
