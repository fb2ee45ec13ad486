import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../../../src/rungs/ui/browser.js';
import { handoffDesk } from '../../../../src/rungs/ui/handoff/desk.js';
import { Runtime } from '../../../../src/runtime/runtime.js';
import { type HandoffRecord, Handoffs } from '../../../../src/store/handoffs.js';
import { tempDir } from '../../../support/temp.js';

const dir = tempDir('lift-handoff-desk-');
const CANARY = 'canary-title-secret-41c7';
const runtime = new Runtime({ home: dir.path, env: { LIFT_SECRET_PORTAL_TOKEN: CANARY } });
const records = new Handoffs(runtime.store.db);
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 800, height: 600 } })).newPage();
  await page.setContent('<label>Name <input id="name"></label>');
});
afterAll(async () => {
  await runtime.close();
  await browser?.close();
  dir.remove();
});

interface Answer {
  status: number;
  body: string;
}

/** One request to a handoff's endpoint, with a token and Host of the test's choosing. */
function send(
  record: HandoffRecord,
  action: string,
  options: { method?: string; token?: string; host?: string; body?: unknown; firstEvent?: boolean } = {},
): Promise<Answer> {
  const url = new URL(`/handoffs/${record.id}${action}`, record.endpoint);
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: options.method ?? 'POST',
      headers: {
        authorization: `Bearer ${options.token ?? record.token}`,
        ...(options.host ? { host: options.host } : {}),
      },
      timeout: 20_000,
    });
    outgoing.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
        // A screencast never ends by itself: the first frame is enough.
        if (options.firstEvent && body.includes('\n\n') && body.includes('event: frame')) {
          resolve({ status: response.statusCode ?? 0, body });
          response.destroy();
        }
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer')));
    outgoing.on('error', reject);
    outgoing.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

async function waitingOne(): Promise<HandoffRecord> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const [record] = records.waiting();
    if (record) return record;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('No handoff was recorded.');
}

describe('the handoff desk records a handed-over page and answers for it on loopback', () => {
  it('streams the page, takes checked input with the token only, and gives the page back on done', async () => {
    const desk = await handoffDesk(runtime);
    const ended = desk.handOver({
      page,
      reason: 'Sign in again',
      deadlineMs: 60_000,
      tool: 'lookup',
      runId: 'run_1',
    });
    const record = await waitingOne();
    expect(record).toMatchObject({
      reason: 'Sign in again',
      tool: 'lookup',
      runId: 'run_1',
      state: 'waiting',
    });
    expect(record.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    expect((await send(record, '/done', { token: 'not-the-token' })).status).toBe(404);
    const port = new URL(record.endpoint).port;
    expect((await send(record, '/done', { host: `rebound.example:${port}` })).status).toBe(404);
    expect((await send(record, '/input', { body: { kind: 'click', x: 5_000, y: 10 } })).status).toBe(400);
    expect((await send(record, '/input', { body: { kind: 'key', key: 'F12' } })).status).toBe(400);
    expect((await send(record, '/input', { body: { kind: 'eval', code: '1' } })).status).toBe(400);

    const frame = await send(record, '/frames', { method: 'GET', firstEvent: true });
    expect(frame.status).toBe(200);
    const data = JSON.parse(/data: (.*)\n/.exec(frame.body)?.[1] ?? '{}') as { width: number; data: string };
    expect(data.width).toBe(800);
    expect(Buffer.from(data.data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));

    const field = (await page.locator('#name').boundingBox())!;
    expect(
      (await send(record, '/input', { body: { kind: 'click', x: field.x + 5, y: field.y + 5 } })).status,
    ).toBe(204);
    expect((await send(record, '/input', { body: { kind: 'text', text: 'typed by a person' } })).status).toBe(
      204,
    );
    await expect(page.locator('#name').inputValue()).resolves.toBe('typed by a person');

    expect((await send(record, '/done')).status).toBe(204);
    await expect(ended).resolves.toBe('done');
    expect(records.get(record.id)).toMatchObject({ state: 'done', token: '' });
    expect((await send(record, '/done')).status).toBe(404);
  });

  it('records the reason with stored secrets taken out (a page title may carry one)', async () => {
    const desk = await handoffDesk(runtime);
    const ended = desk.handOver({ page, reason: `Sign in again: ${CANARY} portal`, deadlineMs: 60_000 });
    const record = await waitingOne();
    expect(record.reason).toBe('Sign in again: [secret:portal_token] portal');
    await send(record, '/done');
    await ended;
  });

  it('gives the page back when the deadline passes or the call is cancelled', async () => {
    const desk = await handoffDesk(runtime);
    await expect(desk.handOver({ page, reason: 'Second factor', deadlineMs: 200 })).resolves.toBe('expired');
    const cancel = new AbortController();
    const ended = desk.handOver({ page, reason: 'Second factor', deadlineMs: 60_000, signal: cancel.signal });
    const record = await waitingOne();
    cancel.abort();
    await expect(ended).resolves.toBe('ended');
    expect(records.get(record.id)?.state).toBe('ended');
    expect(records.waiting()).toEqual([]);
  });

  it('ends a handoff whose process is gone, so no console offers it', async () => {
    const desk = await handoffDesk(runtime);
    const ended = desk.handOver({ page, reason: 'Sign in again', deadlineMs: 60_000 });
    const record = await waitingOne();
    const gone = spawnSync(process.execPath, ['-e', 'process.pid']).pid;
    runtime.store.db.prepare('UPDATE handoffs SET owner_pid = ? WHERE id = ?').run(gone, record.id);
    expect(records.waiting()).toEqual([]);
    expect(records.get(record.id)?.state).toBe('ended');
    await desk.close();
    await expect(ended).resolves.toBe('ended');
  });
});
