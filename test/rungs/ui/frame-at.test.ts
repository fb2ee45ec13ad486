import type { Frame } from 'playwright-core';
import { describe, expect } from 'vitest';
import { frameAt, knownFrame } from '../../../src/rungs/ui/frame-at.js';
import { frameScope } from '../../../src/rungs/ui/locator.js';
import { itWithPage as it } from '../../support/browser-page.js';

const framed = (attributes: string, body: string) =>
  `<iframe ${attributes} srcdoc="${body.replace(/"/g, '&quot;')}"></iframe>`;

async function text(frame: Frame | undefined): Promise<string | undefined> {
  return frame?.evaluate(() => (document.body.textContent ?? '').trim());
}

describe('frameAt', () => {
  it('finds frames by their iframe title or name, level by level', async ({ page }) => {
    await page.setContent(
      `<p>top</p>${framed('title="Workspace"', '<p>workspace</p>')}${framed('name="side"', '<p>side</p>')}${framed(
        'title="Outer"',
        `<p>outer</p>${framed('title="Inner"', '<p>inner</p>')}`,
      )}`,
    );
    await page.waitForFunction(() => document.querySelectorAll('iframe').length === 3);
    await expect.poll(() => page.frames().length).toBe(5);
    expect(await text(await frameAt(page, []))).toContain('top');
    expect(await text(await frameAt(page, ['Workspace']))).toBe('workspace');
    expect(await text(await frameAt(page, ['side']))).toBe('side');
    expect(await text(await frameAt(page, ['Outer', 'Inner']))).toBe('inner');
  });

  it('answers undefined for a frame that is missing or named twice, as a frame locator would refuse it', async ({
    page,
  }) => {
    await page.setContent(`${framed('title="Twin"', '<p>a</p>')}${framed('title="Twin"', '<p>b</p>')}`);
    await expect.poll(() => page.frames().length).toBe(3);
    expect(await frameAt(page, ['Twin'])).toBeUndefined();
    expect(await frameAt(page, ['Nowhere'])).toBeUndefined();
    expect(await frameAt(page, ['Twin', 'Inner'])).toBeUndefined();
  });

  it('finds a frame by the title its iframe has now, once the frame shows another page', async ({ page }) => {
    // Titles are remembered per frame and URL: an app that retitles its iframe does so as it loads another page.
    await page.setContent(framed('title="Inbox"', '<p>inbox</p>'));
    await expect.poll(() => page.frames().length).toBe(2);
    expect(await text(await frameAt(page, ['Inbox']))).toBe('inbox');
    await page.evaluate(() => {
      const iframe = document.querySelector('iframe')!;
      iframe.setAttribute('title', 'Message');
      iframe.srcdoc = '<p>message</p>';
    });
    await expect.poll(async () => text(await frameAt(page, ['Message']))).toBe('message');
    expect(await frameAt(page, ['Inbox'])).toBeUndefined();
  });
});

describe('knownFrame', () => {
  it('knows a frame once its title was read, until the frame shows another document', async ({ page }) => {
    await page.setContent(`<p>top</p>${framed('title="Workspace"', '<p>workspace</p>')}`);
    await expect.poll(() => page.frames().length).toBe(2);
    // Nothing read yet: the scope is the frame locator, which asks the page each time.
    expect(knownFrame(page, ['Workspace'])).toBeUndefined();
    const frame = await frameAt(page, ['Workspace']);
    expect(knownFrame(page, ['Workspace'])).toBe(frame);
    expect(frameScope(page, ['Workspace'])).toBe(frame);
    expect(await frameScope(page, ['Workspace']).getByText('workspace', { exact: true }).count()).toBe(1);
    await page.evaluate(() => {
      document.querySelector('iframe')!.srcdoc = '<p>next</p>';
    });
    await expect.poll(() => text(frame)).toBe('next');
    expect(knownFrame(page, ['Workspace'])).toBeUndefined();
    expect(await frameScope(page, ['Workspace']).getByText('next', { exact: true }).count()).toBe(1);
  });

  it('never knows a frame named twice, or one beside a frame whose title is unread', async ({ page }) => {
    await page.setContent(`${framed('title="Twin"', '<p>a</p>')}${framed('title="Twin"', '<p>b</p>')}`);
    await expect.poll(() => page.frames().length).toBe(3);
    await frameAt(page, ['Twin']);
    expect(knownFrame(page, ['Twin'])).toBeUndefined();
    // The named frame is found by name, so the other's title is never read: it could be "Side" too.
    await page.setContent(
      `${framed('name="Side"', '<p>named</p>')}${framed('title="Side"', '<p>titled</p>')}`,
    );
    await expect.poll(() => page.frames().length).toBe(3);
    await frameAt(page, ['Side']);
    expect(knownFrame(page, ['Side'])).toBeUndefined();
    expect(frameScope(page, ['Side'])).not.toBe(await frameAt(page, ['Side']));
  });

  it('finds a replaced iframe through the frame locator, never the frame it replaced', async ({ page }) => {
    await page.setContent(framed('title="Workspace"', '<p>old</p>'));
    await expect.poll(() => page.frames().length).toBe(2);
    const old = await frameAt(page, ['Workspace']);
    expect(knownFrame(page, ['Workspace'])).toBe(old);
    await page.evaluate(() => {
      const next = document.createElement('iframe');
      next.title = 'Workspace';
      next.srcdoc = '<p>new</p>';
      document.querySelector('iframe')!.replaceWith(next);
    });
    await expect.poll(() => old?.isDetached()).toBe(true);
    await expect.poll(() => page.frames().length).toBe(2);
    expect(knownFrame(page, ['Workspace'])).toBeUndefined();
    expect(await frameScope(page, ['Workspace']).getByText('new', { exact: true }).count()).toBe(1);
  });
});
