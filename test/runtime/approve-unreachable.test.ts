import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import type { ErrorEnvelope, PendingEnvelope, SuccessEnvelope } from '../../src/contract/envelope.js';
import { RequestIdSchema } from '../../src/contract/request-id.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { tempDir } from '../support/temp.js';

/** A port nothing listens on: taken from the system, then let go. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const posted: string[] = [];
let port = 0;

/** A write over plain fetch, as a tools module might send it: an unreachable server throws fetch's own error. */
const boardPost = defineTool({
  name: 'board_post',
  description: 'Posts one message to the board server. Returns the text posted.',
  rung: 'api',
  input: z.strictObject({ text: z.string().min(1).max(100), request_id: RequestIdSchema }),
  output: z.object({ text: z.string() }),
  effect: { class: 'visible' },
  timeout: { deadlineMs: 5_000 },
  example: { text: 'hello', request_id: 'post-0001' },
  run: async ({ text }) => {
    const response = await fetch(`http://127.0.0.1:${port}/post`, { method: 'POST', body: text });
    return { fields: { text: await response.text() }, summary: `Posted ${text}.` };
  },
});

const dir = tempDir();
let runtime: Runtime;
let board: Server | undefined;

beforeAll(async () => {
  port = await closedPort();
  runtime = new Runtime({ home: join(dir.path, 'home'), tools: [boardPost] });
});
afterAll(async () => {
  await runtime.close();
  await new Promise((resolve) => (board ? board.close(resolve) : resolve(undefined)));
  dir.remove();
});

describe('an approved call whose program cannot be reached', () => {
  it('answers UPSTREAM_UNAVAILABLE with outcome not_started, not INTERNAL_ERROR, and the same approval runs once the program is up', async () => {
    const held = (await runtime.invoke('board_post', {
      text: 'standup moved',
      request_id: 'post-down-1',
    })) as PendingEnvelope;
    const id = held.pending.approval_id;

    const down = (await runtime.approve(id, { by: 'tester' })) as ErrorEnvelope;
    expect(down.ok).toBe(false);
    expect(down.error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retry: 'yes', outcome: 'not_started' });
    expect(down.error.hint).toContain(`lift approve ${id}`);
    expect(await runtime.store.approvals.get(id)).toMatchObject({ state: 'pending', decidedBy: undefined });
    // A repeat of the call finds the same held call, not a second one.
    const repeat = (await runtime.invoke('board_post', {
      text: 'standup moved',
      request_id: 'post-down-1',
    })) as PendingEnvelope;
    expect(repeat.pending.approval_id).toBe(id);

    board = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        posted.push(body);
        response.end(body);
      });
    });
    await new Promise<void>((resolve) => board?.listen(port, '127.0.0.1', resolve));

    const up = (await runtime.approve(id, { by: 'tester' })) as SuccessEnvelope;
    expect(up).toMatchObject({ ok: true, fields: { text: 'standup moved' } });
    expect(posted).toEqual(['standup moved']);
    expect(await runtime.store.approvals.get(id)).toMatchObject({ state: 'executed' });
    // Used up now: a second yes answers the recorded run and posts nothing more.
    expect(await runtime.approve(id, { by: 'tester' })).toEqual(up);
    expect(posted).toHaveLength(1);
  });
});
