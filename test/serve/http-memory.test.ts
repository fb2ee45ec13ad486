import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Runtime } from '../../src/runtime/runtime.js';
import { type HttpServing, serveHttp } from '../../src/serve/http.js';
import { isolatedAbortFetch } from '../support/isolated-abort-fetch.js';
import { noteRead } from './fixtures/tools.js';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

/** The heap once the run log has flushed its batch (every 50 ms) and the collector has run. */
async function heapAfterGc(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 150));
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('lift serve over Streamable HTTP, call after call', () => {
  const home = mkdtempSync(join(tmpdir(), 'lift-http-memory-'));
  const runtime = new Runtime({ home, tools: [noteRead] });
  let serving: HttpServing;
  let client: Client;
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);

  beforeAll(async () => {
    process.on('warning', onWarning);
    serving = await serveHttp(runtime, { port: 0, token: 'memory-token-123' });
    client = new Client({ name: 'memory', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(serving.url), {
        fetch: isolatedAbortFetch,
        requestInit: { headers: { authorization: 'Bearer memory-token-123' } },
      }),
    );
  }, 30_000);

  afterAll(async () => {
    process.off('warning', onWarning);
    await client.close();
    await serving.close();
    await runtime.close();
    rmSync(home, { recursive: true, force: true });
  });

  const calls = async (count: number) => {
    for (let index = 0; index < count; index++) {
      const result = await client.callTool({
        name: 'note_read',
        arguments: { id: `N-${String(index % 1000).padStart(3, '0')}` },
      });
      if (result.isError) throw new Error(JSON.stringify(result));
    }
  };

  it('keeps no listener, stream or envelope per call: the heap stays where it was', async () => {
    // Past the first calls (caches filled, the run log's batches at their size) nothing should grow.
    // The heap takes one step of about 2 MB somewhere in the first 5,000 calls and is flat after
    // it (measured: +2.25 MB at 5,500 calls, then -0.2 MB over the next 4,000), so the warm-up
    // runs past it.
    await calls(5_500);
    const before = await heapAfterGc();
    await calls(4_000);
    const growth = (await heapAfterGc()) - before;
    // A listener or a stream entry kept per call costs hundreds of bytes: 4,000 calls would show
    // it well above the collector's noise (about half a megabyte here).
    expect(growth).toBeLessThan(1.5 * 1024 * 1024);
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  }, 240_000);
});
