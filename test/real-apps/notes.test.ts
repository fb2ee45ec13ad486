import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { type NotesApp, startApp } from './bed.js';
import { signIn } from './sign-in.js';

let app: NotesApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('notes'), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the notes page with CKEditor 4', () => {
  it('asks for a sign-in first, then lists the seeded notes', async () => {
    const page = await browser.newPage();
    await page.goto(app.startUrl);
    expect(new URL(page.url()).pathname).toBe('/login.php');
    await signIn(page, app);
    const rows = page.getByRole('table', { name: 'All notes' }).getByRole('row');
    expect(await rows.count()).toBe(1 + Object.keys(app.seed.notes).length);
    await page.close();
  });

  it('reads the seeded notes with SQL', async () => {
    expect(app.seed.notes).toMatchObject({
      'Contact form returns 500': 2,
      'Cannot log in': 3,
      'Meeting 2': 12,
    });
    expect(await app.state.note(3)).toMatchObject({ title: 'Cannot log in', author: 'Jane Doe' });
    expect((await app.state.noteByTitle('Save'))?.body).toBe('<p>A note titled like the button.</p>');
    expect(await app.state.note(4)).toBeUndefined();
  });

  it("edits a body in CKEditor 4's iframe, stores the editor's HTML, and forgets it after a reset", async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    await page.goto(`${app.origin}/edit.php?id=2`);
    // The classic editor: the body is the contenteditable <body> of an iframe titled after the field.
    const editable = page
      .frameLocator('iframe[title="Editor, body"]')
      .locator('body[contenteditable="true"]');
    await editable.waitFor({ timeout: 30_000 });
    expect(await editable.textContent()).toContain('Only with an attachment');
    await editable.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Fixed in 2.0.1.');
    await page.getByRole('button', { name: 'Save' }).last().click();
    await page.getByRole('status').filter({ hasText: 'Note saved.' }).waitFor({ timeout: 15_000 });
    const saved = await app.state.note(2);
    // A space typed at the end of a text may be stored as &nbsp;, as CKEditor writes it.
    expect(saved?.body).toMatch(/Error 500 in the log(?: |&nbsp;)Fixed in 2\.0\.1\./);
    expect(saved?.body).toMatch(/^<p>Seen on Monday.<\/p>/);
    expect(saved?.author).toBe('Erin Editor');
    await page.close();

    await app.reset();
    expect((await app.state.note(2))?.body).not.toContain('Fixed in 2.0.1.');
    expect((await app.state.note(2))?.author).toBe('Jane Doe');
  });
});
