import { writeFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackofficeServer, startBackoffice } from '../../src/fixtures/backoffice/index.js';
import { memberNoteCapability, signedInPage } from '../replay/helpers.js';
import { lift } from '../support/cli.js';
import { addCapability, type ConsoleWorld, screenshot, startConsoleWorld } from './support.js';

/** A support token someone pasted into a member note: a stored secret the page now shows. */
const CANARY = 'canary-token-5e1f0c9a7d';
const PASSWORD = 'backoffice-demo';
const MEMBER = 'M-1004';
const NOTE = 'Called about the card';
let fixture: BackofficeServer;
let world: ConsoleWorld;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function signedIn(): Promise<Page> {
  return signedInPage(world.browser, fixture, '', {
    password: PASSWORD,
    viewport: { width: 1280, height: 900 },
  });
}

/** The member page in the workspace frame, with the note typed, as the replay leaves it when Add note is disabled. */
async function memberPageWithNote(page: Page): Promise<void> {
  await page.goto(`${fixture.url}/app`);
  const workspace = page.frameLocator('iframe[title="Workspace"]');
  await workspace.getByLabel('Member ID').fill(MEMBER);
  await workspace.getByRole('button', { name: 'Look up' }).click();
  await workspace.getByRole('heading', { name: `Member ${MEMBER}` }).waitFor();
  await workspace.getByRole('textbox', { name: 'Note', exact: true }).fill(NOTE);
}

/** The share of pixels inside the box (shrunk by 2 px for anti-aliasing) that are pure black. */
async function blackShare(png: Buffer, box: Box): Promise<number> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(
    Math.round(box.x + 2),
    Math.round(box.y + 2),
    Math.max(1, Math.round(box.width - 4)),
    Math.max(1, Math.round(box.height - 4)),
  );
  let black = 0;
  for (let index = 0; index < data.length; index += 4)
    if (data[index]! < 8 && data[index + 1]! < 8 && data[index + 2]! < 8) black++;
  return black / (data.length / 4);
}

beforeAll(async () => {
  fixture = await startBackoffice({ password: PASSWORD });
  world = await startConsoleWorld({ secrets: { support_token: CANARY } });
  const setup = await signedIn();
  await setup.goto(`${fixture.url}/app/members/${MEMBER}`);
  await setup
    .getByRole('textbox', { name: 'Note', exact: true })
    .fill(`Support token for the card reader: ${CANARY}`);
  await setup.getByRole('button', { name: 'Add note' }).click();
  await setup.getByText(CANARY).waitFor();
  await addCapability(
    world,
    'member_note_add',
    await memberNoteCapability(setup, fixture.origin),
    'visible',
    setup,
  );
  await setup.context().close();
  // From now on Add note is disabled: the replay stops with NO_CHANGE and a masked screenshot.
  fixture.setScenario('disabled_button');
}, 180_000);
afterAll(async () => {
  await world?.close();
  await fixture?.close();
});

describe("a run's screenshots on its console page", () => {
  it('shows the evidence screenshot of a failed replay, with the stored secret and the bound values blacked out', {
    timeout: 240_000,
  }, async () => {
    const held = await lift(
      ['call', 'member_note_add', '--input', JSON.stringify({ memberId: MEMBER, note: NOTE })],
      {
        cwd: world.dir,
        env: world.env,
      },
    );
    const approval = JSON.parse(held.stdout).pending.approval_id as string;
    const ran = await lift(['approve', approval, '--json'], {
      cwd: world.dir,
      env: world.env,
      timeoutMs: 120_000,
    });
    expect(ran.stdout).toContain('NO_CHANGE');

    const { page } = world;
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByLabel('Tool or title').fill('member_note_add');
    await page.getByLabel('Outcome').selectOption('failed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator('tbody tr').first().getByRole('link').click();
    await expect(page.getByRole('heading', { name: 'Screenshots' }).count()).resolves.toBe(1);
    const image = page.getByRole('img', { name: /Screenshot 1 of the run: no-change/ });
    await image.scrollIntoViewIfNeeded();
    await expect(
      image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth),
    ).resolves.toBe(1280);
    await screenshot(page, 'run-screenshots');
    const served = await page.request.get(new URL((await image.getAttribute('src')) ?? '', page.url()).href);
    expect(served.headers()['content-type']).toBe('image/png');
    const png = await served.body();
    if (process.env.LIFT_DEBUG_PNG) writeFileSync(process.env.LIFT_DEBUG_PNG, png);

    // Where the canary and the bound member ID sit on that page, from the same page drawn here.
    const reference = await signedIn();
    await memberPageWithNote(reference);
    const workspace = reference.frameLocator('iframe[title="Workspace"]');
    const secretBox = (await workspace.getByText(CANARY).boundingBox())!;
    const boundBox = (await workspace.getByRole('heading', { name: `Member ${MEMBER}` }).boundingBox())!;
    const unmasked = await reference.screenshot();
    await reference.context().close();
    // The boxes hold text on the page as it is, so a black box there is the mask, not the page.
    expect(await blackShare(unmasked, secretBox)).toBeLessThan(0.5);
    expect(await blackShare(png, secretBox)).toBeGreaterThan(0.98);
    expect(await blackShare(png, boundBox)).toBeGreaterThan(0.98);
  });

  it('answers 404 for a screenshot the run does not have', async () => {
    const { page } = world;
    const response = await page.goto(`${page.url()}/screenshots/9`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/has no screenshot 9/);
  });
});
