import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Runtime } from '../runtime/runtime.js';
import { FailedAttempts } from '../store/failed-attempts.js';
import { deferPriming } from './deferred-priming.js';
import { BoundedEventStore } from './event-store.js';
import { FileResources } from './file-resources.js';
import { createLiftServer, type LiftServer, type LiftServerOptions } from './mcp-server.js';
import { allowedOrigins, originAllowed } from './origin.js';

export interface HttpServeOptions extends LiftServerOptions {
  /** 0 picks a free port. */
  port: number;
  /** Loopback unless the operator says otherwise. */
  host?: string;
  /** Every request must carry `Authorization: Bearer <token>`. */
  token: string;
  /** Wrong tokens per client address (a new table unless the console shares its own). */
  attempts?: FailedAttempts;
  /**
   * Web origins whose pages may call the server (`http://localhost:5173`). Requests without an
   * Origin header (every non-browser client) are served; any other Origin gets 403.
   */
  origins?: readonly string[];
  /** A session no request touched for this long is closed (default 30 minutes). */
  idleMs?: number;
  /**
   * Pages served beside /mcp (the console under /console), asked first: they check their own
   * sign-in, Origin and CSRF token, which a browser's page needs and an MCP client does not.
   */
  pages?: PageMount;
}

export interface PageMount {
  handle(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
  listening(host: string, port: number): void;
}

export interface HttpServing {
  url: string;
  port: number;
  close(): Promise<void>;
}

const PATH = '/mcp';
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Constant-time comparison of the presented bearer token with the stored one. */
function authorised(request: IncomingMessage, expected: Buffer): boolean {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1].trim()), expected);
}

/**
 * The bearer check with its backoff: an address still waiting after wrong tokens is refused
 * unchecked (429), a wrong token makes it wait, and the right one from an address that need
 * not wait passes at once.
 */
function refusedToken(
  request: IncomingMessage,
  response: ServerResponse,
  expected: Buffer,
  attempts: FailedAttempts,
): boolean {
  const address = request.socket.remoteAddress;
  const wait = attempts.waitMs(address);
  if (wait === 0 && authorised(request, expected)) return false;
  request.resume();
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1_000);
    reply(response, 429, `Too many wrong tokens from this address: try again in ${seconds} s.`, {
      'retry-after': String(seconds),
    });
    return true;
  }
  // A request with no token at all guesses nothing (a client asking how to authenticate).
  if (request.headers.authorization) attempts.failed(address);
  reply(response, 401, 'Unauthorized: send Authorization: Bearer <token> (the serve_token secret).', {
    'www-authenticate': 'Bearer realm="lift"',
  });
  return true;
}

function reply(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RangeError(`Request body over ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

interface Session {
  transport: StreamableHTTPServerTransport;
  lift: LiftServer;
  lastSeen: number;
}

/**
 * Serves the runtime's tools over Streamable HTTP with stateful sessions (elicitation needs
 * the server to know each client's capabilities). A request from a web origin not allowed gets
 * 403, and one without the bearer token 401, before anything is parsed or run.
 */
export async function serveHttp(runtime: Runtime, options: HttpServeOptions): Promise<HttpServing> {
  const host = options.host ?? '127.0.0.1';
  const expected = digest(options.token);
  const attempts = options.attempts ?? new FailedAttempts();
  const origins = allowedOrigins(options.origins ?? []);
  const resources = options.resources ?? new FileResources();
  const sessions = new Map<string, Session>();
  let allowedHosts: string[] | undefined;

  const openSession = async (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    const lift = createLiftServer(runtime, { ...options, resources });
    const events = new BoundedEventStore();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: events,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, lift, lastSeen: Date.now() });
      },
      ...(allowedHosts ? { enableDnsRebindingProtection: true, allowedHosts } : {}),
    });
    // The store keeps what a long call's broken stream needs; an ordinary call pays nothing for it.
    deferPriming(transport, events);
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      lift.dispose();
    };
    await lift.server.connect(transport);
    await transport.handleRequest(request, response, body);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (options.pages && (await options.pages.handle(request, response))) return;
    // The transport rules ask for this on every request, before anything else is answered.
    if (!originAllowed(request, origins)) {
      request.resume();
      return reply(
        response,
        403,
        `Forbidden: requests from the web origin ${JSON.stringify(request.headers.origin)} are not accepted. Only clients that send no Origin, or an origin the operator allowed (lift serve --allow-origin), may call this server.`,
      );
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== PATH) return reply(response, 404, `Not found: the MCP endpoint is ${PATH}.`);
    if (refusedToken(request, response, expected, attempts)) return;
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return reply(response, 404, `Session ${sessionId} not found; initialize a new one.`);
      session.lastSeen = Date.now();
      return session.transport.handleRequest(request, response);
    }
    if (request.method !== 'POST')
      return reply(response, 400, 'Bad request: no session; POST initialize first.');
    const body = await readJson(request);
    if (!isInitializeRequest(body))
      return reply(response, 400, 'Bad request: no session; POST initialize first.');
    return openSession(request, response, body);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) return response.destroy();
      const status = error instanceof SyntaxError ? 400 : error instanceof RangeError ? 413 : 500;
      reply(response, status, error instanceof Error ? error.message : String(error));
    });
  });
  // MCP clients hold their connection between calls; a short keep-alive makes the server
  // close it just as the client reuses it ("other side closed").
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  options.pages?.listening(host, port);
  const idleMs = options.idleMs ?? 30 * 60_000;
  // Clients that vanish without DELETE would otherwise keep their sessions forever.
  const sweeper = setInterval(
    () => {
      for (const { transport, lastSeen } of sessions.values()) {
        if (Date.now() - lastSeen > idleMs) void transport.close();
      }
    },
    Math.min(idleMs, 60_000),
  );
  sweeper.unref();
  if (LOOPBACK.has(host)) allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const shownHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${shownHost}:${port}${PATH}`,
    port,
    close: async () => {
      clearInterval(sweeper);
      for (const { transport } of [...sessions.values()]) await transport.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
