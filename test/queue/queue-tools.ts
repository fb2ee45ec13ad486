/**
 * A ledger of posts that several worker processes write to at once (one line appended per
 * post, O_APPEND, so concurrent writers never lose a line), for the queue tests: a post
 * waits `wait_ms`, appends its line, then holds `hold_ms` before it answers, so a test can
 * kill a worker after the write landed and before the job completed. The settle read looks
 * for the request id's line.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import { LiftError } from '../../src/contract/errors.js';
import { RequestIdSchema } from '../../src/contract/request-id.js';

function postsFile(): string {
  const path = process.env.LIFT_TEST_POSTS;
  if (!path) throw new Error('LIFT_TEST_POSTS must name the posts file');
  return path;
}

/** Every post's request id, in the order the lines landed. */
export function postedIds(path = postsFile()): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' ')[0] ?? '');
}

/** How many posts `requestId` has (exactly-once means 1). */
export function postsOf(path: string, requestId: string): number {
  return postedIds(path).filter((id) => id === requestId).length;
}

/** The pid of the process that wrote the post of `requestId`, once it landed. */
export function writerOf(path: string, requestId: string): number | undefined {
  if (!existsSync(path)) return undefined;
  const line = readFileSync(path, 'utf8')
    .split('\n')
    .find((each) => each.startsWith(`${requestId} `));
  return line ? Number(line.split(' ')[1]) : undefined;
}

const PostOutput = z.object({ request_id: z.string(), pid: z.number().int() });

/** The settle read of a post: its line in the posts file, if it landed. */
function landedPost(requestId: string) {
  return postedIds().includes(requestId)
    ? { fields: { request_id: requestId, pid: process.pid }, summary: 'The post landed before' }
    : undefined;
}

export const postWrite = defineTool({
  name: 'post_write',
  description: 'Appends one post to the shared test ledger. Returns its request id and the worker pid.',
  rung: 'file',
  input: z.strictObject({
    text: z.string().min(1).max(100),
    request_id: RequestIdSchema,
    wait_ms: z.number().int().min(0).max(60_000).default(0),
    hold_ms: z.number().int().min(0).max(60_000).default(0),
  }),
  output: PostOutput,
  effect: { class: 'visible', gate: 'none' },
  timeout: { deadlineMs: 90_000, settle: 'the posts file: a line starting with the request id' },
  settleRead: async (input) => landedPost(input.request_id),
  run: async (input, ctx) => {
    await sleep(input.wait_ms, undefined, { signal: ctx.signal });
    ctx.markStarted();
    appendFileSync(postsFile(), `${input.request_id} ${process.pid} ${input.text}\n`);
    await sleep(input.hold_ms, undefined, { signal: ctx.signal });
    return { fields: { request_id: input.request_id, pid: process.pid }, summary: 'Posted' };
  },
});

/** The same post held for a person's review first: a queued call that waits for an approval. */
export const postReviewed = defineTool({
  ...postWrite,
  name: 'post_reviewed',
  description:
    'Appends one post to the shared test ledger once a person approved it. Returns its request id.',
  effect: { class: 'visible' },
  preview: (input: { text: string }) => `Post '${input.text}' to the shared test ledger`,
});

/** How often the system was too busy to start `requestId`'s post (post_when_free). */
export function busyRefusalsOf(path: string, requestId: string): number {
  const busy = `${path}.busy`;
  if (!existsSync(busy)) return 0;
  return readFileSync(busy, 'utf8')
    .split('\n')
    .filter((line) => line === requestId).length;
}

/**
 * A post the system is too busy to start its first `busy_tries` times (a shared file whose lock
 * others held for the whole deadline): TIMEOUT, outcome not_started, each refusal counted.
 */
export const postWhenFree = defineTool({
  name: 'post_when_free',
  description: 'Appends one post to the shared test ledger once the ledger is free. Returns its request id.',
  rung: 'file',
  input: z.strictObject({
    text: z.string().min(1).max(100),
    request_id: RequestIdSchema,
    busy_tries: z.number().int().min(0).max(20),
  }),
  output: PostOutput,
  effect: { class: 'visible', gate: 'none' },
  timeout: { deadlineMs: 30_000, settle: 'the posts file: a line starting with the request id' },
  settleRead: async (input) => landedPost(input.request_id),
  run: async (input, ctx) => {
    if (busyRefusalsOf(postsFile(), input.request_id) < input.busy_tries) {
      appendFileSync(`${postsFile()}.busy`, `${input.request_id}\n`);
      throw new LiftError('TIMEOUT', 'The posts file stayed busy for the whole deadline.', {
        outcome: 'not_started',
        hint: 'Nothing was written. Call again.',
      });
    }
    ctx.markStarted();
    appendFileSync(postsFile(), `${input.request_id} ${process.pid} ${input.text}\n`);
    return { fields: { request_id: input.request_id, pid: process.pid }, summary: 'Posted' };
  },
});

export const tools = [postWrite, postReviewed, postWhenFree];
