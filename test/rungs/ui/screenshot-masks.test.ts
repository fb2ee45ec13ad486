import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../../src/rungs/ui/browser.js';
import { maskedScreenshot } from '../../../src/rungs/ui/screenshot.js';
import { tempDir } from '../../support/temp.js';

const dir = tempDir('lift-screenshot-masks-');
let browser: Browser;
let page: Page;

// A list screen as WordPress draws it: a filter link "All (5)", the user "al", a field holding "al".
const PAGE = `<!doctype html><body style="margin:0;background:#fff;font:32px sans-serif">
<p id="filter" style="margin:20px">All (5)</p>
<p id="user" style="margin:20px">al</p>
<p id="path" style="margin:20px">/wp-admin/</p>
<input id="field" value="al" style="margin:20px;font:32px sans-serif"></body>`;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 600, height: 400 } });
  await page.setContent(PAGE);
});
afterAll(async () => {
  await browser?.close();
  dir.remove();
});

/** The share of pure black pixels in an element's box (shrunk by 2 px for anti-aliasing). */
async function blackShare(path: string, selector: string): Promise<number> {
  const box = (await page.locator(selector).boundingBox())!;
  const image = await loadImage(readFileSync(path));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(
    box.x + 2,
    box.y + 2,
    Math.max(1, box.width - 4),
    Math.max(1, box.height - 4),
  );
  let black = 0;
  for (let index = 0; index < data.length; index += 4)
    if (data[index]! < 8 && data[index + 1]! < 8 && data[index + 2]! < 8) black++;
  return black / (data.length / 4);
}

describe('a screenshot masks bound inputs as whole values only', () => {
  it('blacks out the text and field that hold the input, never a word that starts with it', async () => {
    const { path } = await maskedScreenshot(page, join(dir.path, 'al.png'), {
      values: [],
      inputs: ['al', 'admin'],
      hiddenColumns: [],
    });
    expect(await blackShare(path, '#user')).toBeGreaterThan(0.9);
    expect(await blackShare(path, '#field')).toBeGreaterThan(0.9);
    expect(await blackShare(path, '#filter')).toBeLessThan(0.2);
    expect(await blackShare(path, '#path')).toBeLessThan(0.2);
  });

  it('still blacks out a secret inside a longer text', async () => {
    const { path } = await maskedScreenshot(page, join(dir.path, 'secret.png'), {
      values: ['wp-admin'],
      hiddenColumns: [],
    });
    expect(await blackShare(path, '#path')).toBeGreaterThan(0.9);
  });
});
