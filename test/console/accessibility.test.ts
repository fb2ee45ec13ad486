import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleWorld, startConsoleWorld } from './support.js';

let world: ConsoleWorld;

beforeAll(async () => {
  world = await startConsoleWorld();
}, 120_000);
afterAll(() => world?.close());

/** Pages of the signed-in console, with what each is (a run and a tool are looked up first). */
async function consolePages(page: Page): Promise<string[]> {
  await page.goto(`${world.url}runs`);
  const run = await page.locator('tbody tr a').first().getAttribute('href');
  return [
    'approvals',
    'handoffs',
    'runs',
    ...(run ? [run.replace('/console/', '')] : []),
    'capabilities',
    'tools',
    'tools/notice_publish',
    'ladder',
    'runs/run_missing',
  ];
}

/** Controls a person cannot name: fields with no label, buttons with no text, images with no alt. */
function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const unnamed: string[] = [];
    const named = (element: Element) =>
      Boolean(element.getAttribute('aria-label')?.trim() || element.getAttribute('aria-labelledby'));
    for (const field of Array.from(
      document.querySelectorAll('input:not([type=hidden]), select, textarea'),
    ) as HTMLInputElement[]) {
      if ((field.labels?.length ?? 0) === 0 && !named(field)) unnamed.push(field.outerHTML.slice(0, 80));
    }
    for (const button of Array.from(document.querySelectorAll('button, a'))) {
      if (!button.textContent?.trim() && !named(button) && !button.querySelector('img[alt]'))
        unnamed.push(button.outerHTML.slice(0, 80));
    }
    for (const image of Array.from(document.querySelectorAll('img')))
      if (!image.getAttribute('alt')?.trim()) unnamed.push(image.outerHTML.slice(0, 80));
    return unnamed;
  });
}

describe('the console is usable with a keyboard, a screen reader and a narrow window', () => {
  it('names every control on every page, and fits a 390 px window without scrolling sideways', {
    timeout: 120_000,
  }, async () => {
    const { page } = world;
    const held = world.call('notice_publish', { name: 'labels check', request_id: 'a11y-1' });
    await page.goto(`${world.url}approvals`);
    await page.locator('#held > li').first().waitFor({ timeout: 30_000 });
    for (const path of await consolePages(page)) {
      for (const size of [
        { width: 1280, height: 800 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(size);
        await page.goto(`${world.url}${path}`);
        await expect(unnamedControls(page), path).resolves.toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} at ${size.width} px`).toBeLessThanOrEqual(0);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${world.url}approvals`);
    await page.locator('#held > li').first().getByRole('button', { name: 'Deny' }).click();
    await held.done;
  });

  it('approves a held call with the keyboard alone, from the skip link to the Approve button', {
    timeout: 120_000,
  }, async () => {
    const { page } = world;
    const held = world.call('notice_publish', { name: 'by keyboard', request_id: 'a11y-2' });
    await page.goto(`${world.url}approvals`);
    await page.locator('#held > li', { hasText: 'by keyboard' }).waitFor({ timeout: 30_000 });
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');
    await page.keyboard.press('Enter');
    let focused = '';
    for (let presses = 0; presses < 30 && focused !== 'Approve'; presses++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    }
    expect(focused).toBe('Approve');
    await page.keyboard.press('Enter');
    const result = await held.done;
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).fields.name).toBe('notice: by keyboard');
  });
});
