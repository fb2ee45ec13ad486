import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { handoffDesk } from '../../src/console/handoffs.js';
import { type ConsoleServing, serveConsole } from '../../src/console/server.js';
import { type BackofficeServer, startBackoffice } from '../../src/fixtures/backoffice/index.js';
import { replayCapability } from '../../src/replay/engine.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { launchChromium, memberLookupCapability } from '../replay/helpers.js';
import { tempDir } from '../support/temp.js';
import { screenshot, TOKEN } from './support.js';

const PASSWORD = 'canary-password-0b5e77';
const home = tempDir('lift-console-handoff-');
let fixture: BackofficeServer;
let browser: Browser;
let runtime: Runtime;
let serving: ConsoleServing;
let capability: Capability;

beforeAll(async () => {
  fixture = await startBackoffice({ password: PASSWORD });
  runtime = new Runtime({ home: join(home.path, 'home') });
  serving = await serveConsole(runtime, { port: 0, token: TOKEN });
  browser = await launchChromium();
  const setup = await signIn(PASSWORD);
  capability = await memberLookupCapability(setup, fixture.origin);
  await setup.context().close();
});
afterAll(async () => {
  await browser?.close();
  await serving?.close();
  await runtime?.close();
  await fixture?.close();
  home.remove();
});

async function signIn(password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${fixture.url}/login`);
  await page.getByLabel('User').fill(fixture.user);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button').click();
  await page.waitForURL(/\/app/);
  return page;
}

async function consolePage(): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(serving.url);
  await page.getByLabel('Serve token').fill(TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\/approvals/);
  return page;
}

/** Where a point of the handed-over page shows in the console's live image. */
async function onScreen(person: Page, run: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = (await person.locator('#screen').boundingBox())!;
  const size = run.viewportSize()!;
  return { x: box.x + (x / size.width) * box.width, y: box.y + (y / size.height) * box.height };
}

async function clickThrough(person: Page, run: Page, label: string): Promise<void> {
  const field = (await run.getByLabel(label).boundingBox())!;
  const point = await onScreen(person, run, field.x + field.width / 2, field.y + field.height / 2);
  await person.mouse.click(point.x, point.y);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('a person takes over a handed-over page in the console', () => {
  it("signs in again through the screencast on the back office's expired session, and the replay answers", {
    timeout: 150_000,
  }, async () => {
    const run = await signIn(PASSWORD);
    fixture.expireSessions();
    const desk = await handoffDesk(runtime);
    const events: unknown[] = [];
    const replaying = replayCapability(
      capability,
      { memberId: 'M-1004' },
      {
        page: run,
        evidenceDir: join(home.path, 'evidence'),
        stepTimeoutMs: 5_000,
        effectClass: 'read',
        handoff: ({ reason, deadlineMs }) => desk.handOver(run, reason, deadlineMs),
        emit: (event) => events.push(event),
      },
    );
    const person = await consolePage();
    await person.getByRole('link', { name: 'Handoffs' }).click();
    for (
      let attempt = 0;
      attempt < 60 && (await person.getByRole('link', { name: 'Take over' }).count()) === 0;
      attempt++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await person.reload();
    }
    await person.getByRole('link', { name: 'Take over' }).click();
    await person.waitForFunction(
      () => Number(document.getElementById('screen')?.dataset.frames ?? 0) > 0,
      null,
      {
        timeout: 30_000,
      },
    );
    await screenshot(person, 'handoff');

    await clickThrough(person, run, 'User');
    await person.keyboard.type(fixture.user);
    await clickThrough(person, run, 'Password');
    await person.getByLabel(/Type into the page/).fill(PASSWORD);
    await person.getByRole('button', { name: 'Send text' }).click();
    await person.getByRole('button', { name: 'Press Enter in the page' }).click();
    await run.waitForURL(/\/app/, { timeout: 30_000 });
    await person.getByRole('button', { name: 'Done: resume the run' }).click();
    await expect(person.locator('#flash').textContent()).resolves.toContain('back with the run');

    const result = await replaying;
    expect(result.handoffs).toBe(1);
    expect(result.outcome).toBe('found');
    expect(String(result.outputs.currency)).toMatch(/^[A-Z]{3}$/);
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
    await runtime.store.runs.flush();
    for (const file of filesUnder(runtime.home)) expect(readFileSync(file).includes(PASSWORD)).toBe(false);
    await person.context().close();
    await run.context().close();
  });
});
