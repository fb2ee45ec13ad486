import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { type RoundcubeApp, startApp } from './bed.js';
import { signIn } from './sign-in.js';

let app: RoundcubeApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('roundcube'), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the Roundcube bed', () => {
  it('signs alice in and lists her inbox', async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    expect(new URL(page.url()).searchParams.get('_task')).toBe('mail');
    const list = page.getByRole('table', { name: 'Email Messages Listing' });
    await list.getByRole('link', { name: 'Contact form returns 500' }).waitFor({ timeout: 15_000 });
    expect(await list.getByRole('row').count()).toBe(6);
    await page.close();
  });

  it('reads folders, messages and the attachment over IMAP', async () => {
    const folders = await app.state.folders();
    expect(folders.find((folder) => folder.path === 'Projects')?.messages).toBe(2);
    expect(folders.find((folder) => folder.specialUse === '\\Drafts')?.messages).toBe(0);
    const [invoice] = await app.state.findBySubject('Invoice 2 for November');
    expect(invoice).toMatchObject({ folder: 'INBOX', from: { address: 'billing@acme.test' } });
    expect(invoice?.attachments).toEqual([
      { filename: 'invoice-2.pdf', contentType: 'application/pdf', size: expect.any(Number) },
    ]);
    const bob = app.seed.users[1]!;
    expect((await app.state.as(bob).messages()).map((message) => message.subject)).toEqual(['Welcome Bob']);
  });

  it('sees a draft saved from the compose form, and forgets it after a reset', async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    await page.goto(`${app.origin}/?_task=mail&_action=compose`);
    await page.getByRole('textbox', { name: 'Subject' }).fill('Smoke draft from the bed');
    await page.getByRole('textbox', { name: 'Message Body' }).fill('Saved over IMAP by Roundcube.');
    await page.getByRole('button', { name: /Save$/ }).click();
    await page.getByText('Message saved to Drafts').waitFor({ timeout: 15_000 });
    const [draft] = await app.state.findBySubject('Smoke draft from the bed');
    expect(draft).toMatchObject({ folder: 'Drafts', from: { address: 'alice@example.test' } });
    await page.close();

    await app.reset();
    expect(await app.state.findBySubject('Smoke draft from the bed')).toEqual([]);
    expect((await app.state.messages('INBOX')).length).toBe(6);
  });
});
