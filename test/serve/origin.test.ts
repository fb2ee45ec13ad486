import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedOrigins, originAllowed } from '../../src/serve/origin.js';

const ALLOWED = 'http://localhost:5173';

describe('originAllowed', () => {
  let server: Server;
  let port = 0;

  beforeAll(async () => {
    const allowed = allowedOrigins([ALLOWED]);
    server = createServer((incoming, response) => {
      response.end(originAllowed(incoming, allowed) ? 'allowed' : 'refused');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** What the check says of a request carrying these Origin lines (none, one, or several). */
  const verdict = (...origins: string[]) =>
    new Promise<string>((resolve, reject) => {
      const sent = request(
        {
          port,
          host: '127.0.0.1',
          path: '/mcp',
          // Raw header lines: the only way to send Origin twice. Host is then ours to send.
          headers: ['host', `127.0.0.1:${port}`, ...origins.flatMap((origin) => ['origin', origin])],
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          response.on('end', () => resolve(text));
        },
      );
      sent.on('error', reject);
      sent.end();
    });

  it('serves a client that sends no Origin, and a page from an allowed origin', async () => {
    expect(await verdict()).toBe('allowed');
    expect(await verdict(ALLOWED)).toBe('allowed');
  });

  it('refuses another origin, an empty one, and a second Origin line naming another site', async () => {
    expect(await verdict('http://evil.example')).toBe('refused');
    expect(await verdict('')).toBe('refused');
    expect(await verdict(ALLOWED, 'http://evil.example')).toBe('refused');
  });
});
