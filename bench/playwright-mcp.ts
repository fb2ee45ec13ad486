/**
 * @playwright/mcp as a model would use it: its own server process over MCP stdio, Debian's
 * Chromium with the no-network flags, never a downloaded browser. Used by observe.bench.ts and
 * tools-list.bench.ts.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../src/rungs/ui/browser.js';

export interface PlaywrightMcp {
  /** Opens `url` in the server's browser and returns what `browser_snapshot` answers, as text. */
  snapshot(url: string): Promise<string>;
  close(): Promise<void>;
}

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content
    .filter((part) => part.type === 'text')
    .map((part) => part.text ?? '')
    .join('\n');
}

/**
 * The server as a model's client reaches it, its config written into `dir`: Debian's Chromium,
 * and the cookies in `storageState` when given. Nothing launches until a browser tool is called.
 */
export async function connectPlaywrightMcp(options: { dir: string; storageState?: string }): Promise<Client> {
  // The package exports no cli.js; its bin sits beside package.json.
  const cli = join(dirname(createRequire(import.meta.url).resolve('@playwright/mcp/package.json')), 'cli.js');
  const config = join(options.dir, 'playwright-mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      browser: {
        browserName: 'chromium',
        isolated: true,
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          headless: true,
          chromiumSandbox: false,
          args: CHROMIUM_ARGS,
        },
        // Playwright's default viewport, as Lift's pages have.
        contextOptions: {
          ...(options.storageState ? { storageState: options.storageState } : {}),
          viewport: { width: 1280, height: 720 },
        },
      },
      outputDir: join(options.dir, 'playwright-mcp-output'),
    }),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, '--config', config],
    env: { ...(process.env as Record<string, string>), PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'lift-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Starts the server with a browser already signed in: `storageState` holds the cookies. */
export async function startPlaywrightMcp(options: {
  dir: string;
  storageState: string;
}): Promise<PlaywrightMcp> {
  const client = await connectPlaywrightMcp(options);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    if (result.isError) throw new Error(`${name} failed: ${textOf(result).slice(0, 500)}`);
    return result;
  };
  return {
    snapshot: async (url) => {
      await call('browser_navigate', { url });
      // Pages that fill themselves in after load (mail lists) get the same second as Lift's side.
      await call('browser_wait_for', { time: 1 });
      return textOf(await call('browser_snapshot', {}));
    },
    close: async () => {
      await call('browser_close', {}).catch(() => undefined);
      await client.close();
    },
  };
}
