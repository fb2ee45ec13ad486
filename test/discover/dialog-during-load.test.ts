import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolEvent } from '../../src/contract/context.js';
import { PageDriver } from '../../src/discover/ui-driver.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { tempDir } from '../support/temp.js';

// A start page that asks before it has loaded: an alert, then a confirm whose answer the page
// writes down, then the rest of the page. `lift session start` and `lift discover` open it
// through PageDriver.open and take its fingerprint, as here.
const START = `<!doctype html><title>Members</title><script>
alert('Welcome back, member M-1001');
document.write('<p id="answer">confirmed: ' + confirm('Delete the draft you left?') + '</p>');
</script><main><h1>Members</h1><a href="/search">Search</a></main>`;

let server: Server;
let origin: string;
let browser: Browser;
const dir = tempDir('lift-dialog-load-');

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(START);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  dir.remove();
});

describe('a start page that opens dialogs while it loads', () => {
  it('opens in a discovery session: each dialog answered (dismissed, nothing confirmed) and recorded', async () => {
    const events: ToolEvent[] = [];
    const page = await browser.newPage();
    const driver = await PageDriver.create({
      page,
      policy: parsePolicy({ origins: [origin] }),
      bound: { memberId: 'M-1001' },
      hiddenColumns: [],
      attended: false,
      outputDir: dir.path,
      emit: (event) => events.push(event),
    });
    const started = Date.now();
    await driver.open(`${origin}/members`);
    expect(Date.now() - started).toBeLessThan(10_000);
    await driver.fingerprint();
    const { observation } = await driver.observe({});
    expect(observation.dialog).toBeUndefined();
    expect(await page.textContent('#answer')).toBe('confirmed: false');
    expect(await page.textContent('h1')).toBe('Members');
    const answered = events.filter((event) => event.type === 'ui-dialog-answered');
    expect(answered).toEqual([
      // The bound input's value is masked as in every event.
      expect.objectContaining({ dialog: 'alert', response: 'dismiss', during: 'load' }),
      expect.objectContaining({
        dialog: 'confirm',
        message: 'Delete the draft you left?',
        response: 'dismiss',
        during: 'load',
      }),
    ]);
    expect(String(answered[0]?.message)).not.toContain('M-1001');
    expect(events.filter((event) => event.type === 'ui-dialog-opened')).toHaveLength(2);
    await page.close();
  }, 60_000);
});
