import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a test page's server answers one request with. */
export interface PageAnswer {
  body: string;
  /** Content type; HTML unless said. */
  type?: string;
  /**
   * How long the server takes to answer, as a loaded application's server does; Infinity:
   * it never answers (the request stays open until the server closes).
   */
  afterMs?: number;
}

/** A loopback server of test pages: its origin, and how to stop it. */
export interface PagesServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * A server on 127.0.0.1 (a free port) that answers every request with what `answer` says for
 * its URL: the pages a replay or session test drives, some answered late on purpose.
 */
export async function servePages(answer: (url: URL) => PageAnswer): Promise<PagesServer> {
  const server = createServer((request, response) => {
    const {
      body,
      type = 'text/html; charset=utf-8',
      afterMs = 0,
    } = answer(new URL(request.url ?? '/', 'http://localhost'));
    const send = () => {
      if (!response.destroyed) response.writeHead(200, { 'content-type': type }).end(body);
    };
    if (afterMs === Number.POSITIVE_INFINITY) return;
    if (afterMs > 0) setTimeout(send, afterMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        // A page still waiting on a late answer must not hold the server open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
