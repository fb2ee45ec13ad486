import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Runtime } from '../runtime/runtime.js';
import type { FailedAttempts } from '../store/failed-attempts.js';
import { ASSETS } from './assets.js';
import { ConsoleAuth, type ConsoleSession, hostAllowed, hostsFor, sameOrigin } from './auth.js';
import { HandoffBoard } from './handoffs.js';
import { BASE, loginPage, notFoundPage } from './layout.js';
import { StoreWatch } from './live.js';
import { Missing } from './missing.js';
import { readForm, redirect, sendHtml, sendText } from './respond.js';
import { ROUTES, type Route } from './routes.js';

export interface ConsoleOptions {
  /** The serve token (the serve_token secret); a browser exchanges it once for a session. */
  token: string;
  /**
   * Wrong tokens per client address; `lift serve --http` shares one with its bearer check, so
   * that guesses at either door count together.
   */
  attempts?: FailedAttempts;
}

export interface ConsoleHandler {
  /** Answers a request under /console; false when the path is not the console's. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
  /** The host:port names it answers to, set once the server listens. */
  listening(host: string, port: number): void;
  close(): void;
}

export interface ConsoleContext {
  runtime: Runtime;
  request: IncomingMessage;
  response: ServerResponse;
  session: ConsoleSession;
  url: URL;
  params: string[];
  form: URLSearchParams;
  /** The held calls, for the approvals page. */
  watch: StoreWatch;
  /** The pages waiting for a person, for the handoffs page. */
  handoffWatch: StoreWatch;
  handoffs: HandoffBoard;
}

const HOME = { href: `${BASE}/approvals`, label: 'Approvals' };

function find(method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const match = route.path.exec(path);
    if (match) return { route, params: match.slice(1).map((part) => decodeURIComponent(part)) };
  }
  return undefined;
}

/**
 * The console as a request handler, so `lift console` and `lift serve --http` serve the same
 * pages. Nothing is served without a session; a state change needs the session's CSRF token and
 * an Origin that is this console.
 */
export function createConsole(runtime: Runtime, options: ConsoleOptions): ConsoleHandler {
  const auth = new ConsoleAuth(options.token, options.attempts);
  const watch = new StoreWatch(
    async () => (await runtime.store.approvals.list(['pending'])).map((approval) => approval.id),
    'held',
  );
  const handoffs = new HandoffBoard(runtime);
  const handoffWatch = new StoreWatch(() => handoffs.waiting().map((record) => record.id), 'handoffs', 1_000);
  let hosts = new Set<string>();

  const login = async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'GET') return sendHtml(response, 200, loginPage(undefined));
    if (!sameOrigin(request, hosts))
      return sendText(response, 403, 'Forbidden: sign in from the console page.');
    const signIn = auth.exchange((await readForm(request)).get('token') ?? '', request.socket.remoteAddress);
    if (signIn.kind === 'wait') {
      const seconds = Math.ceil(signIn.ms / 1_000);
      return sendHtml(
        response,
        429,
        loginPage(`Too many wrong tokens from this address: try again in ${seconds} s.`),
        { 'retry-after': String(seconds) },
      );
    }
    if (signIn.kind === 'wrong') return sendHtml(response, 401, loginPage('That is not the serve token.'));
    redirect(response, `${BASE}/approvals`, { 'set-cookie': auth.cookieFor(signIn.session) });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
    const url = new URL(request.url ?? '/', 'http://console.invalid');
    if (url.pathname !== BASE && !url.pathname.startsWith(`${BASE}/`)) return false;
    if (!hostAllowed(request, hosts)) {
      request.resume();
      sendText(response, 403, `Forbidden: this console answers to ${[...hosts].join(', ')} only.`);
      return true;
    }
    const method = request.method ?? 'GET';
    const asset = ASSETS[url.pathname];
    if (asset && method === 'GET') {
      sendText(response, 200, asset.body, asset.type);
      return true;
    }
    if (url.pathname === `${BASE}/login`) {
      await login(request, response);
      return true;
    }
    const session = auth.sessionOf(request);
    if (!session) {
      request.resume();
      if (method === 'GET') redirect(response, `${BASE}/login`);
      else sendText(response, 401, 'Unauthorized: sign in at /console/login.');
      return true;
    }
    let form = new URLSearchParams();
    if (method === 'POST') {
      form = await readForm(request);
      if (!sameOrigin(request, hosts) || !auth.csrfMatches(session, form.get('csrf'))) {
        sendText(response, 403, 'Forbidden: the form did not come from this console (Origin or CSRF token).');
        return true;
      }
      if (url.pathname === `${BASE}/logout`) {
        auth.end(session);
        redirect(response, `${BASE}/login`, { 'set-cookie': auth.clearingCookie() });
        return true;
      }
    }
    const path = url.pathname === BASE || url.pathname === `${BASE}/` ? `${BASE}/approvals` : url.pathname;
    const found = find(method, path);
    try {
      if (!found) throw new Missing(`No console page is at ${url.pathname}.`, undefined, HOME);
      await found.route.run({
        runtime,
        request,
        response,
        session,
        url,
        params: found.params,
        form,
        watch,
        handoffWatch,
        handoffs,
      });
    } catch (error) {
      if (!(error instanceof Missing) || response.headersSent) throw error;
      sendHtml(response, 404, notFoundPage(session, error));
    }
    return true;
  };

  return {
    handle,
    listening: (host, port) => {
      hosts = hostsFor(host, port);
    },
    close: () => {
      watch.close();
      handoffWatch.close();
    },
  };
}

export interface ConsoleServing {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** `lift console`: the console on its own port, loopback unless the operator says otherwise. */
export async function serveConsole(
  runtime: Runtime,
  options: ConsoleOptions & { port: number; host?: string },
): Promise<ConsoleServing> {
  const host = options.host ?? '127.0.0.1';
  const handler = createConsole(runtime, options);
  const server = createServer((request, response) => {
    handler
      .handle(request, response)
      .then((handled) => {
        if (!handled) redirect(response, `${BASE}/approvals`);
      })
      .catch((error: unknown) => {
        if (response.headersSent) return response.destroy();
        const status = error instanceof RangeError ? 413 : 500;
        sendText(response, status, error instanceof Error ? error.message : String(error));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  handler.listening(host, port);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${BASE}/`,
    port,
    close: async () => {
      handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
