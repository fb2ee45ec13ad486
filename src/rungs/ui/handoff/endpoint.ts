import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { HandoffInputSchema } from './input.js';
import type { Screencast } from './screencast.js';

/** What the endpoint needs of one handed-over page. */
export interface HeldPage {
  token: string;
  screencast: Screencast;
  /** The person is done: the run takes the page back. */
  finish(): void;
}

const PATH = /^\/handoffs\/(ho_[a-f0-9]{12})(\/frames|\/input|\/done)$/;
const MAX_BODY_BYTES = 8 * 1024;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function tokenMatches(request: IncomingMessage, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  return token.length > 0 && timingSafeEqual(digest(given), digest(token));
}

function answer(response: ServerResponse, status: number, message?: string): void {
  if (message === undefined) {
    response.writeHead(status).end();
    return;
  }
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: message }));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RangeError(`The body is over ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * The loopback door of the process that holds handed-over pages: a console in any process of
 * the same home reads the address and the per-handoff token from the store, watches the
 * page's screencast and sends the person's input and their "done" here. Only 127.0.0.1, only
 * with the token, only these three requests; nothing sent is logged.
 */
export class HandoffEndpoint {
  readonly url: string;
  readonly #server: Server;

  private constructor(server: Server, url: string) {
    this.#server = server;
    this.url = url;
  }

  static async start(held: (id: string) => HeldPage | undefined): Promise<HandoffEndpoint> {
    let host = '';
    const server = createServer((request, response) => {
      handle(request, response, host, held).catch((error: unknown) => {
        if (response.headersSent) return response.destroy();
        answer(
          response,
          error instanceof RangeError || error instanceof SyntaxError ? 400 : 500,
          String(error),
        );
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    // A waiting person must not keep a finished process alive.
    server.unref();
    host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    return new HandoffEndpoint(server, `http://${host}`);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  host: string,
  held: (id: string) => HeldPage | undefined,
): Promise<void> {
  const match = PATH.exec(new URL(request.url ?? '/', 'http://endpoint.invalid').pathname);
  const page = match ? held(match[1]!) : undefined;
  // A name that resolves elsewhere (DNS rebinding) or a wrong token learns nothing, not even whether the handoff exists.
  if (request.headers.host !== host || !match || !page || !tokenMatches(request, page.token)) {
    request.resume();
    return answer(response, 404, 'No such handoff here.');
  }
  const action = match[2];
  if (action === '/frames' && request.method === 'GET') return page.screencast.watch(response);
  if (request.method !== 'POST')
    return answer(response, 405, 'Frames are read with GET; input and done are POST.');
  if (action === '/done') {
    request.resume();
    page.finish();
    return answer(response, 204);
  }
  const parsed = HandoffInputSchema.safeParse(await readJson(request));
  if (!parsed.success) return answer(response, 400, z.prettifyError(parsed.error));
  const input = parsed.data;
  const size = page.screencast.viewport();
  if (input.kind === 'click' && (input.x > size.width || input.y > size.height))
    return answer(response, 400, `A click must be inside the page (${size.width}×${size.height}).`);
  await page.screencast.send(input);
  answer(response, 204);
}
