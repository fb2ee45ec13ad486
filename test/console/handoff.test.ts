import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackofficeServer, startBackoffice } from '../../src/fixtures/backoffice/index.js';
import { memberLookupCapability, signedInPage } from '../replay/helpers.js';
import { LIFT_BIN, lift } from '../support/cli.js';
import { addCapability, type ConsoleWorld, screenshot, startConsoleWorld } from './support.js';

const PASSWORD = 'canary-password-0b5e77';
const TOOL = 'member_lookup_savings';
const INPUT = { memberId: 'M-1004' };
let fixture: BackofficeServer;
let world: ConsoleWorld;

beforeAll(async () => {
  // session_expires: the session ends right after the first member page, as a real one times out.
  fixture = await startBackoffice({ password: PASSWORD, scenario: 'session_expires' });
  world = await startConsoleWorld();
  const setup = await signedInPage(world.browser, fixture, '', { password: PASSWORD });
  await addCapability(
    world,
    'member_lookup',
    await memberLookupCapability(setup, fixture.origin),
    'read',
    setup,
  );
  await setup.context().close();
}, 180_000);
afterAll(async () => {
  await world?.close();
  await fixture?.close();
});

/** Where a point of the handed-over page shows in the console's live image. */
async function onScreen(person: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const screen = person.locator('#screen');
  const box = (await screen.boundingBox())!;
  const size = await screen.evaluate((image: HTMLImageElement) => ({
    width: image.naturalWidth,
    height: image.naturalHeight,
  }));
  return { x: box.x + (x / size.width) * box.width, y: box.y + (y / size.height) * box.height };
}

/**
 * Where the sign-in page puts its fields, read from the same page at the size the screencast
 * shows: the run's page is in another process, so the person sees it only through the image.
 */
async function fieldCentres(person: Page): Promise<Record<'User' | 'Password', { x: number; y: number }>> {
  const size = await person
    .locator('#screen')
    .evaluate((image: HTMLImageElement) => ({ width: image.naturalWidth, height: image.naturalHeight }));
  const reference = await (await world.browser.newContext({ viewport: size })).newPage();
  await reference.goto(`${fixture.url}/login?expired=1`);
  const centre = async (label: string) => {
    const box = (await reference.getByLabel(label).boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  const centres = { User: await centre('User'), Password: await centre('Password') };
  await reference.context().close();
  return centres;
}

/** The person in the console: waits for the handoff, signs in through the screencast, presses Done. */
async function signInThroughConsole(picture?: string): Promise<void> {
  const person = world.page;
  await person.getByRole('link', { name: 'Handoffs' }).click();
  // The list is live: the handoff appears without a reload when the other process records it.
  await person.getByRole('link', { name: 'Take over' }).waitFor({ timeout: 120_000 });
  await expect(person.getByText(TOOL).count()).resolves.toBeGreaterThan(0);
  await person.getByRole('link', { name: 'Take over' }).click();
  await person.waitForFunction(
    () => Number(document.getElementById('screen')?.dataset.frames ?? 0) > 0,
    null,
    {
      timeout: 30_000,
    },
  );
  if (picture) await screenshot(person, picture);
  const since = fixture.requests().at(-1)?.seq ?? 0;
  const fields = await fieldCentres(person);
  const user = await onScreen(person, fields.User.x, fields.User.y);
  await person.mouse.click(user.x, user.y);
  await person.keyboard.type(fixture.user);
  const password = await onScreen(person, fields.Password.x, fields.Password.y);
  await person.mouse.click(password.x, password.y);
  await person.getByLabel(/Type into the page/).fill(PASSWORD);
  await person.getByRole('button', { name: 'Send text' }).click();
  await person.getByRole('button', { name: 'Press Enter in the page' }).click();
  // The run's page is elsewhere: the application's own log says when the sign-in went through
  // and the page after it was shown, which is when a person watching presses Done.
  let seen = '';
  for (let attempt = 0; attempt < 120; attempt++) {
    const logged = fixture.requests().filter((request) => request.seq > since);
    seen = logged.map((request) => `${request.method} ${request.path} ${request.status}`).join(', ');
    const signIn = logged.find((request) => request.method === 'POST' && request.path.startsWith('/login'));
    const shown = logged.find(
      (request) =>
        request.seq > (signIn?.seq ?? Number.MAX_SAFE_INTEGER) &&
        request.method === 'GET' &&
        request.path.startsWith('/app') &&
        request.status === 200,
    );
    if (signIn?.status === 303 && shown) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(seen, 'the sign-in typed through the screencast went through').toMatch(
    /POST \/login\S* 303.*GET \/app\S* 200/,
  );
  await person.getByRole('button', { name: 'Done: resume the run' }).click();
  await expect(person.locator('#flash').textContent()).resolves.toContain('back with the run');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function expectNoPasswordOnDisk(): void {
  for (const file of filesUnder(world.env.LIFT_HOME!))
    expect(readFileSync(file).includes(PASSWORD), file).toBe(false);
}

describe('a person signs a run of another process in again from the console', () => {
  it('lift call --wait meets the expired session, the console shows the page, the person signs in and the call answers', {
    timeout: 300_000,
  }, async () => {
    const first = await lift(['call', TOOL, '--input', JSON.stringify(INPUT)], {
      cwd: world.dir,
      env: world.env,
      timeoutMs: 120_000,
    });
    expect(first.code, first.stderr).toBe(0);
    // The scenario ended the session after that member page. Unattended, nobody is asked.
    const unattended = await lift(['call', TOOL, '--input', JSON.stringify(INPUT)], {
      cwd: world.dir,
      env: world.env,
      timeoutMs: 120_000,
    });
    expect(JSON.parse(unattended.stdout).error.code).toBe('AUTH_REQUIRED');

    const waiting = world.call(TOOL, INPUT);
    await signInThroughConsole('handoff');
    const answered = await waiting.done;
    expect(answered.code, `${answered.stdout}\n${answered.stderr}`).toBe(0);
    const envelope = JSON.parse(answered.stdout);
    expect(envelope.fields.outcome).toBe('found');
    expect(envelope.fields.currency).toMatch(/^[A-Z]{3}$/);
    expect(answered.stderr).toContain('needs a person');
    expect(answered.stdout + answered.stderr).not.toContain(PASSWORD);
    await expect(world.page.getByText('No page is waiting for a person.').count()).resolves.toBe(1);
    expectNoPasswordOnDisk();
  });

  it('lift serve --stdio waits on the handoff while the person signs in, and the MCP call answers ok', {
    timeout: 300_000,
  }, async () => {
    const client = new Client({ name: 'console-handoff-test', version: '1.0.0' });
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env))
      if (value !== undefined && !key.startsWith('LIFT_')) env[key] = value;
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [LIFT_BIN, 'serve', '--stdio'],
        cwd: world.dir,
        env: { ...env, ...world.env },
        stderr: 'ignore',
      }),
      { timeout: 60_000 },
    );
    try {
      // The last sign-in's session ended after its member page too: this call meets it expired.
      const calling = client.callTool({ name: TOOL, arguments: INPUT }, undefined, { timeout: 240_000 });
      await signInThroughConsole();
      const result = (await calling) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toMatchObject({ ok: true, fields: { outcome: 'found' } });
      expect(JSON.stringify(result)).not.toContain(PASSWORD);
    } finally {
      await client.close();
    }
    expectNoPasswordOnDisk();
  });
});
