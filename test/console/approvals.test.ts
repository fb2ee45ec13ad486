import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleWorld, screenshot, startConsoleWorld, TOKEN } from './support.js';

const CANARY = 'CANARY-7d1e-secret';
let world: ConsoleWorld;

beforeAll(async () => {
  world = await startConsoleWorld({ secrets: { notice_canary: CANARY } });
});
afterAll(() => world?.close());

/** fetch cannot send another Host; a page on a rebound name would. */
function statusWithHost(url: string, host: string, cookie: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { host, cookie } }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('error', reject);
    request.end();
  });
}

function heldCard(tool: string) {
  return world.page.locator('#held > li', { hasText: tool });
}

describe('the console answers held calls while the CLI waits', () => {
  it('shows a held call as it arrives, without a reload, with the preview the gate built', async () => {
    const call = world.call('notice_publish', { name: 'arrives live', request_id: 'console-live-1' });
    const card = heldCard('notice_publish');
    await card.waitFor({ timeout: 30_000 });
    await expect(card.locator('.preview').textContent()).resolves.toContain("Publish notice 'arrives live'");
    await expect(card.locator('.badge').textContent()).resolves.toContain('visible · review');
    await screenshot(world.page, 'approvals');
    await card.getByRole('button', { name: 'Approve' }).click();
    const result = await call.done;
    expect(result.code).toBe(0);
    const envelope = JSON.parse(result.stdout);
    expect(envelope).toMatchObject({
      ok: true,
      tool: 'notice_publish',
      fields: { name: 'notice: arrives live' },
    });
    await expect(world.page.locator('#flash').textContent()).resolves.toContain('approved');
  });

  it('denies a held call: the waiting CLI returns APPROVAL_DENIED and nothing ran', async () => {
    const call = world.call('notice_publish', { name: 'never published', request_id: 'console-deny-1' });
    const card = heldCard('never published');
    await card.waitFor({ timeout: 30_000 });
    await card.getByRole('button', { name: 'Deny' }).click();
    const result = await call.done;
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error.code).toBe('APPROVAL_DENIED');
    await expect(world.page.locator('#held > li', { hasText: 'never published' }).count()).resolves.toBe(0);
  });

  it('changes the input: the old call is denied, the changed one needs its own yes, the CLI gets its result', async () => {
    const call = world.call('notice_publish', { name: 'first wording', request_id: 'console-change-1' });
    const card = heldCard('first wording');
    await card.waitFor({ timeout: 30_000 });
    const oldId = await card.getAttribute('data-id');
    await card.getByText('Change the input').click();
    await card
      .getByLabel(/New input for notice_publish/)
      .fill(JSON.stringify({ name: 'second wording', request_id: 'console-change-1' }));
    await card.getByRole('button', { name: 'Hold the changed call' }).click();
    await expect(world.page.locator('#flash').textContent()).resolves.toContain('needs its own yes');
    const changed = heldCard('second wording');
    await changed.waitFor({ timeout: 30_000 });
    expect(await changed.getAttribute('data-id')).not.toBe(oldId);
    expect(call.child.exitCode).toBeNull();
    await changed.getByRole('button', { name: 'Approve' }).click();
    const result = await call.done;
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).fields.name).toBe('notice: second wording');
    expect(result.stderr).toContain('waiting for the changed call');
  });

  it('runs a signature call only with the typed phrase', async () => {
    const call = world.call('record_purge', { request_id: 'console-purge-1' });
    const card = heldCard('record_purge');
    await card.waitFor({ timeout: 30_000 });
    await expect(card.locator('.badge').textContent()).resolves.toContain('irreversible · signature');
    const phrase = (await card.locator('code.phrase').textContent()) ?? '';
    await card.getByLabel(/Type the phrase/).fill('not the phrase');
    await card.getByRole('button', { name: 'Approve' }).click();
    await expect(world.page.locator('#flash').textContent()).resolves.toContain('CONFIRMATION_MISMATCH');
    expect(call.child.exitCode).toBeNull();
    await heldCard('record_purge')
      .getByLabel(/Type the phrase/)
      .fill(phrase);
    await heldCard('record_purge').getByRole('button', { name: 'Approve' }).click();
    const result = await call.done;
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).fields.deleted).toBeGreaterThan(0);
  });

  it('never renders a secret: a held input carrying one shows it masked', async () => {
    const call = world.call('notice_publish', { name: `key ${CANARY}`, request_id: 'console-canary-1' });
    const card = heldCard('notice_publish');
    await card.waitFor({ timeout: 30_000 });
    const pages = await Promise.all(
      ['approvals', 'approvals/held', 'runs', 'tools'].map(async (path) => {
        const response = await world.page.request.get(`${world.url}${path}`);
        return response.text();
      }),
    );
    pages.push(await world.page.content());
    for (const text of pages) {
      expect(text).not.toContain(CANARY);
      expect(text).not.toContain(TOKEN);
    }
    await card.getByRole('button', { name: 'Deny' }).click();
    await call.done;
  });
});

describe('the console lets in only its own signed-in pages', () => {
  it('serves nothing without a session and sets a strict, HttpOnly cookie', async () => {
    const bare = await fetch(`${world.url}approvals`, { redirect: 'manual' });
    expect(bare.status).toBe(303);
    expect(bare.headers.get('location')).toBe('/console/login');
    const held = await fetch(`${world.url}approvals/held`, { redirect: 'manual' });
    expect(await held.text()).not.toContain('data-id');
    const cookies = await world.page.context().cookies();
    const session = cookies.find((cookie) => cookie.name === 'lift_console');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
  });

  it('refuses a wrong token, a post without the CSRF token, and a post from another origin', async () => {
    const origin = new URL(world.url).origin;
    const wrong = await fetch(`${world.url}login`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=nope',
      redirect: 'manual',
    });
    expect(wrong.status).toBe(401);
    const login = await fetch(`${world.url}login`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${TOKEN}`,
      redirect: 'manual',
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^lift_console=/);
    const page = await fetch(`${world.url}approvals`, { headers: { cookie } });
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    expect(csrf).not.toBe('');
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${world.url}approvals/ap_000000000000/deny`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
        redirect: 'manual',
      });
    expect((await post({ origin }, 'csrf=wrong')).status).toBe(403);
    expect((await post({ origin: 'http://evil.example' }, `csrf=${csrf}`)).status).toBe(403);
    expect((await post({}, `csrf=${csrf}`)).status).toBe(403);
    expect((await post({ origin }, `csrf=${csrf}`)).status).toBe(303);
    expect(await statusWithHost(`${world.url}approvals`, 'attacker.example', cookie)).toBe(403);
  });
});
