import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../../../src/rungs/ui/browser.js';
import { PageHarness } from '../../../src/rungs/ui/harness.js';
import { parsePolicy } from '../../../src/rungs/ui/policy.js';
import { tempDir } from '../../support/temp.js';

export interface PageOnServer {
  origin: string;
  page: Page;
  harness: PageHarness;
  close(): Promise<void>;
}

/** A handler that answers every request with the same HTML page. */
export function servesHtml(html: string): RequestListener {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  };
}

/**
 * A page of Debian's Chromium in the one page harness, allowed only the loopback server that
 * answers with `handler`: for tests whose page is a few lines of HTML written in the test.
 * `inputs` are bound as a discovery session binds its task's inputs.
 */
export async function pageOnServer(
  handler: RequestListener,
  prefix: string,
  inputs?: Record<string, string>,
): Promise<PageOnServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = tempDir(prefix);
  const browser = await launchBrowser();
  const page = await browser.newPage();
  const harness = await PageHarness.open(page, {
    policy: parsePolicy({ origins: [origin] }),
    outputDir: dir.path,
    ...(inputs ? { inputs } : {}),
  });
  return {
    origin,
    page,
    harness,
    close: async () => {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
      dir.remove();
    },
  };
}
