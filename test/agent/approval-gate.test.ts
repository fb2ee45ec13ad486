import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const post = (channel: string, path = '/tmp/summary.txt') => ({
  kind: 'answer' as const,
  toolCalls: [{ name: 'post_message', args: { channel, path } }],
});
const outboxOf = (h: Harness) => join(h.runtime.outputDir, 'post_message', 'outbox.log');
const posted = (h: Harness) =>
  existsSync(outboxOf(h)) ? readFileSync(outboxOf(h), 'utf8').trim().split('\n') : [];

describe('the approval gate in conversation', () => {
  it('shows the preview and runs the held call exactly once on yes', async () => {
    harness = await startHarness();
    harness.server.enqueue(post('#team'), { kind: 'answer', text: 'Posted.' });
    const result = await harness.run('post the summary to #team', { replies: ['yes'] });

    expect(result.outcome).toBe('answered');
    expect(harness.lines).toContain('held   post_message for review: Post summary.txt to #team');
    expect(harness.asked).toHaveLength(1);
    expect(posted(harness)).toEqual(['#team /tmp/summary.txt']);
    const [approval] = await harness.runtime.store.approvals.list(['executed']);
    expect(approval?.tool).toBe('post_message');
    expect(harness.server.requests[1]!.rawBody).toContain('ran exactly once');
    expect(result.row).toMatchObject({ toolCalls: 1, checksPassed: 1, checksTotal: 1 });
  });

  it('drops the held call on no', async () => {
    harness = await startHarness();
    harness.server.enqueue(post('#team'), { kind: 'answer', text: 'Dropped, nothing was posted.' });
    const result = await harness.run('post the summary to #team', { replies: ['no'] });

    expect(result.outcome).toBe('answered');
    expect(posted(harness)).toEqual([]);
    expect(await harness.runtime.store.approvals.list(['denied'])).toHaveLength(1);
    expect(harness.server.requests[1]!.rawBody).toContain('A person said no');
  });

  it('sends any other reply back to the model as a change request', async () => {
    harness = await startHarness();
    harness.server.enqueue(post('#team'), post('#general'), {
      kind: 'answer',
      text: 'Posted to #general instead.',
    });
    const result = await harness.run('post the summary to #team', {
      replies: ['post it to #general instead', 'yes'],
    });

    expect(result.outcome).toBe('answered');
    expect(harness.server.requests[1]!.rawBody).toContain('asked for a change');
    expect(harness.server.requests[1]!.rawBody).toContain('post it to #general instead');
    expect(posted(harness)).toEqual(['#general /tmp/summary.txt']);
    expect(result.row).toMatchObject({ modelCalls: 3, toolCalls: 1 });
  });

  it('leaves the call pending when nobody can answer, for lift approve', async () => {
    harness = await startHarness();
    harness.server.enqueue(post('#team'));
    const result = await harness.run('post the summary to #team');

    expect(result.outcome).toBe('pending');
    expect(posted(harness)).toEqual([]);
    const [approval] = await harness.runtime.store.approvals.list(['pending']);
    expect(approval?.tool).toBe('post_message');
    expect(result.pending[0]?.approvalId).toBe(approval?.id);
    expect(harness.lines.some((line) => line.startsWith(`left pending: lift approve ${approval?.id}`))).toBe(
      true,
    );
    expect(harness.server.requests).toHaveLength(1);
  });

  it('takes --yes as the yes of a review-gated call', async () => {
    harness = await startHarness();
    harness.server.enqueue(post('#team'), { kind: 'answer', text: 'Posted.' });
    await harness.run('post the summary to #team', { autoApprove: true });
    expect(harness.asked).toHaveLength(0);
    expect(posted(harness)).toEqual(['#team /tmp/summary.txt']);
  });

  it('needs a second, separate yes for an irreversible call', async () => {
    harness = await startHarness();
    const { runtime, server } = harness;
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const keep = join(harness.home, 'keep.txt');
    const drop = join(harness.home, 'drop.txt');
    mkdirSync(harness.home, { recursive: true });
    writeFileSync(keep, 'keep');
    writeFileSync(drop, 'drop');
    const remove = (path: string) => ({
      kind: 'answer' as const,
      toolCalls: [{ name: 'delete_note', args: { path } }],
    });

    // One yes, then a no: nothing is deleted, even with --yes.
    server.enqueue(remove(keep), { kind: 'answer', text: 'Kept it.' });
    await harness.run('delete the note keep.txt', { replies: ['yes', 'no'], autoApprove: true });
    expect(existsSync(keep)).toBe(true);
    expect(harness.asked[1]).toMatch(/cannot be undone. Say 'yes' again/);

    // Two separate yeses: deleted once.
    server.enqueue(remove(drop), { kind: 'answer', text: 'Deleted.' });
    const result = await harness.run('delete the note drop.txt', { replies: ['yes', 'yes'] });
    expect(existsSync(drop)).toBe(false);
    expect(result.row.toolCalls).toBe(1);
    expect((await runtime.store.approvals.list(['executed'])).map((approval) => approval.tool)).toEqual([
      'delete_note',
    ]);
  });
});
