/**
 * A URL reaches a tool only where the tool declares one (compose_layered_image's layer `url`) and
 * the operator allowed its origin (settings.<family>.origins): the body is capped, read no further
 * than the cap, and a redirect to another origin is not followed. A file given by path is read
 * the same way: bounded, and never a pipe that would hold the call (issue 40).
 */
import { execFileSync } from 'node:child_process';
import { truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PICTURE_BYTES } from '../../src/apps/image/pictures.js';
import { tools } from '../../src/apps/image/tools.js';
import type { Envelope } from '../../src/contract/envelope.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { type Listener, startListener } from './listener.js';
import { type Layout, layout } from './support.js';

const MB = 1_048_576;
/** What the web server offers as a "picture": far more than the cap. */
const HUGE_BYTES = 600 * MB;

interface PictureServer {
  origin: string;
  /** Bytes of the huge bodies actually written to the socket. */
  sent: number;
  close(): Promise<void>;
}

function png(): Buffer {
  const canvas = createCanvas(40, 30);
  const context = canvas.getContext('2d');
  context.fillStyle = '#c62828';
  context.fillRect(0, 0, 40, 30);
  return canvas.toBuffer('image/png');
}

/** Writes `total` bytes a megabyte at a time, waiting for the socket to drain, until done or closed. */
async function stream(
  response: import('node:http').ServerResponse,
  total: number,
  count: (n: number) => void,
) {
  const chunk = Buffer.alloc(MB, 7);
  for (let written = 0; written < total && !response.destroyed; written += MB) {
    count(MB);
    if (!response.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.on('drain', done);
        response.on('close', done);
      });
    }
  }
  response.end();
}

async function startPictureServer(elsewhere: () => string): Promise<PictureServer> {
  const picture = png();
  const state = { sent: 0 };
  const server: Server = createServer((request, response) => {
    const count = (n: number) => {
      state.sent += n;
    };
    if (request.url === '/logo.png') response.writeHead(200, { 'content-type': 'image/png' }).end(picture);
    else if (request.url === '/moved') response.writeHead(302, { location: '/logo.png' }).end();
    else if (request.url === '/away') response.writeHead(302, { location: `${elsewhere()}/logo.png` }).end();
    else if (request.url === '/huge') {
      response.writeHead(200, { 'content-type': 'image/png' });
      void stream(response, HUGE_BYTES, count);
    } else if (request.url === '/huge-declared') {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(HUGE_BYTES) });
      void stream(response, HUGE_BYTES, count);
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

let at: Layout;
let runtime: Runtime;
let pictures: PictureServer;
let other: Listener;

beforeAll(async () => {
  at = layout();
  other = await startListener();
  pictures = await startPictureServer(() => other.origin);
  runtime = new Runtime({ home: at.home, workingDir: at.work, tools, origins: { image: [pictures.origin] } });
});
afterAll(async () => {
  await runtime.close();
  await pictures.close();
  await other.close();
  at.remove();
});

const poster = (layer: Record<string, unknown>) =>
  runtime.invoke('compose_layered_image', {
    size: [64, 64],
    name: 'Poster',
    layers: [
      { name: 'Back', kind: 'color', color: 'navy' },
      { name: 'Logo', kind: 'image', at: 'center', scale: 0.5, ...layer },
    ],
  });

function refusal(envelope: Envelope) {
  if (!('error' in envelope)) throw new Error(`expected a refusal, got ${JSON.stringify(envelope)}`);
  return envelope.error;
}

describe('compose_layered_image layer url', () => {
  it('fetches a picture from an origin the operator allowed, and composes it', async () => {
    const envelope = await poster({ url: `${pictures.origin}/logo.png` });
    expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
  });

  it('follows a redirect within the allowed origin', async () => {
    const envelope = await poster({ url: `${pictures.origin}/moved` });
    expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
  });

  it('refuses an origin the operator did not allow, before any request, saying how to allow it', async () => {
    const error = refusal(await poster({ url: `${other.origin}/logo.png` }));
    expect(error.code).toBe('POLICY_BLOCKED');
    expect(error.hint).toContain('"settings": { "image": { "origins"');
    expect(other.connections).toBe(0);
  });

  it('does not follow a redirect to another origin', async () => {
    const error = refusal(await poster({ url: `${pictures.origin}/away` }));
    expect(error.code).toBe('POLICY_BLOCKED');
    expect(error.message).toContain('another origin');
    expect(other.connections).toBe(0);
  });

  it.each(['/huge', '/huge-declared'])(
    'stops reading %s at the cap, holding no more than the cap in memory',
    { timeout: 120_000 },
    async (path) => {
      pictures.sent = 0;
      const base = process.memoryUsage().arrayBuffers;
      let peak = base;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      }, 5);
      let error: ReturnType<typeof refusal>;
      try {
        error = refusal(await poster({ url: `${pictures.origin}${path}` }));
      } finally {
        clearInterval(sampler);
      }
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toContain(`more than ${MAX_PICTURE_BYTES} bytes`);
      // Socket buffers let the server write somewhat past the point the reader stopped.
      expect(pictures.sent).toBeLessThan(MAX_PICTURE_BYTES + 64 * MB);
      expect(peak - base).toBeLessThan(MAX_PICTURE_BYTES + 64 * MB);
      console.log(
        `${path}: server wrote ${(pictures.sent / MB).toFixed(0)} MB of ${HUGE_BYTES / MB} MB; peak buffers +${((peak - base) / MB).toFixed(0)} MB`,
      );
    },
  );
});

describe('compose_layered_image layer file', () => {
  it('refuses a file over the cap without reading it', async () => {
    const big = join(at.work, 'big.png');
    writeFileSync(big, '');
    truncateSync(big, MAX_PICTURE_BYTES + 1);
    const error = refusal(await poster({ file: big }));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toContain('is not a file of at most');
  });

  it('refuses a named pipe at once instead of waiting on it until the deadline', async () => {
    const pipe = join(at.work, 'pipe.png');
    execFileSync('mkfifo', [pipe]);
    const started = Date.now();
    const error = refusal(await poster({ file: pipe }));
    expect(error.code).toBe('BAD_INPUT');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses both a file and a url in one layer', async () => {
    const error = refusal(
      await poster({ file: join(at.work, 'doc.csv'), url: `${pictures.origin}/logo.png` }),
    );
    expect(error.code).toBe('BAD_INPUT');
  });
});
