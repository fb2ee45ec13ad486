import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server on an origin no policy allows: whatever reaches it leaked. */
export interface Listener {
  origin: string;
  /** Requests received, as "METHOD path?query". */
  requests: string[];
  /** TCP connections accepted, with or without a request on them. */
  connections: number;
  close(): Promise<void>;
}

export async function startListener(): Promise<Listener> {
  const listener: Omit<Listener, 'origin' | 'close'> = { requests: [], connections: 0 };
  const server = createServer((request, response) => {
    listener.requests.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>collected</h1>');
  });
  server.on('connection', () => {
    listener.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(listener, {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
