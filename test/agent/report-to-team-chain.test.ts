import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools as officeTools } from '../../src/apps/office/tools.js';
import { isSuccess } from '../../src/contract/envelope.js';
import { type ChatWorld, ME, startChatWorld } from '../apps/chat/world.js';
import { type Harness, startHarness } from './harness.js';

// 002's chain: one planning call builds a report and posts it to the team room; the post waits for
// a person's yes, is read back from the room's archive, and can be taken back.

let world: ChatWorld;
let harness: Harness;

beforeAll(async () => {
  world = await startChatWorld();
  harness = await startHarness({ tools: [...officeTools, ...world.tools(ME)] });
  harness.runtime.store.secrets.set('chat_password', ME.password);
}, 180_000);
afterAll(async () => {
  await harness?.close();
  await world?.stop();
});

const REPORT = {
  title: 'Weekly report',
  sections: [
    { heading: 'Summary', paragraphs: ['Orders rose 8% on last week; no incidents.'] },
    {
      heading: 'Numbers',
      paragraphs: ['By region.'],
      table: { columns: ['Region', 'Orders'], rows: [['North', '120']] },
    },
  ],
};

describe('build a report, post it to #team, held, approved, read back, undone', () => {
  it('runs as one run_chain, with the post and its undo each waiting for a yes', async () => {
    const { server, runtime } = harness;
    server.enqueue(
      {
        kind: 'answer',
        toolCalls: [
          {
            name: 'run_chain',
            args: {
              steps: [
                { id: 'report', tool: 'build_report', args: { report: REPORT } },
                {
                  id: 'post',
                  tool: 'chat_post',
                  args: {
                    to: '#team',
                    message: "This week's report.",
                    file: '$report.files.pdf',
                    request_id: 'post-chain-0001',
                  },
                },
              ],
            },
          },
        ],
      },
      (request) => {
        const undo = /chat-undo:room:[^"\s\\]+/.exec(request.rawBody)?.[0];
        if (!undo) throw new Error('the post result carried no undo handle');
        return {
          kind: 'answer',
          toolCalls: [{ name: 'chat_undo', args: { undo, request_id: 'undo-chain-0001' } }],
        };
      },
      { kind: 'answer', text: 'Posted the weekly report to #team, then took it back.' },
    );

    const result = await harness.run('build the weekly report and post it to #team', {
      replies: ['yes', 'yes'],
    });
    expect(result.outcome).toBe('answered');
    expect(
      harness.lines.some((line) =>
        line.startsWith(`held   post (chat_post) for review: Post to room ${world.team}`),
      ),
    ).toBe(true);
    expect(harness.lines.some((line) => /File: weekly-report\.pdf \([\d,]+ bytes/.test(line))).toBe(true);

    const [post, undo] = (await runtime.store.approvals.list(['executed'])).map((approval) =>
      JSON.parse(approval.envelope!),
    );
    expect(post).toMatchObject({ ok: true, tool: 'chat_post', fields: { to: world.team, kind: 'room' } });
    expect(post.checks.every((check: { passed: boolean }) => check.passed)).toBe(true);
    expect(post.checks).toHaveLength(3);
    // The file in the room is the PDF the report step wrote, byte for byte.
    const folder = join(runtime.outputDir, 'build_report');
    const pdf = readFileSync(join(folder, readdirSync(folder).find((name) => name.endsWith('.pdf'))!));
    expect(post.fields.file.sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    expect(undo).toMatchObject({ ok: true, tool: 'chat_undo', fields: { method: 'retracted' } });

    const history = await runtime.invoke('chat_history', { to: '#team', message_id: post.fields.message_id });
    if (!isSuccess(history)) throw new Error(JSON.stringify(history));
    expect(history.fields.messages).toMatchObject([{ id: post.fields.message_id, retracted: true }]);
    const served = Buffer.from(await (await fetch(post.fields.file.url)).arrayBuffer());
    expect(createHash('sha256').update(served).digest('hex')).toBe(post.fields.file.sha256);
    expect(result.row.modelCalls).toBe(3);
  }, 240_000);
});
