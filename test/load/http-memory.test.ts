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
import { noteRead } from '../serve/fixtures/tools.js';
import { isolatedAbortFetch } from '../support/isolated-abort-fetch.js';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

/**
 * The heap once the run log has written what it holds and the collector has run: the least of
 * three reads a moment apart. What is held for a moment (a response on its way out, a batch
 * being written) only adds to a read, and a loaded machine holds such things longer.
 */
async function heapAfterGc(runtime: Runtime): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let read = 0; read < 3; read++) {
    await runtime.store.runs.flush();
    await new Promise((resolve) => setTimeout(resolve, 100));
    gc();
    gc();
    least = Math.min(least, process.memoryUsage().heapUsed);
  }
  return least;
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
    // A listener or a stream entry kept per call costs hundreds of bytes, after every window of
    // calls alike. What does not leak still moves the heap: caches fill, the run log's batches
    // reach their size, and on CI's loaded machine the heap read after a window went up and
    // down by 1-3 MB from one window to the next (+3.2 MB once, then -2.4, +1.3, -1.7 MB). So
    // the heap is read after each of seven windows of 2,000 calls, and the least of the last
    // three is compared with the least of the first three, 8,000 calls apart: a swing lifts
    // some reads of a group, not its least, while a leak lifts every read of the later one.
    await calls(3_000);
    const heaps: number[] = [];
    for (let window = 0; window < 7; window++) {
      if (window > 0) await calls(2_000);
      heaps.push(await heapAfterGc(runtime));
    }
    const growth = Math.min(...heaps.slice(4)) - Math.min(...heaps.slice(0, 3));
    // 200 bytes kept per call would add 1.6 MB over the 8,000 calls (a 170-byte string kept per
    // call added 2.2 MB). Without one, the heap grew 0.27 MB here on a quiet machine and 0.43 MB
    // with both cores busy with other work.
    expect(growth, `heap after each window of 2,000 calls: ${heaps.join(', ')} bytes`).toBeLessThan(
      1.2 * 1024 * 1024,
    );
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  }, 240_000);
});
