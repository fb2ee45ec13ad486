import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { FailedAttempts } from '../store/failed-attempts.js';

export const COOKIE = 'lift_console';
/** A session nobody used for this long is gone; the person signs in with the token again. */
const IDLE_MS = 12 * 60 * 60_000;

export interface ConsoleSession {
  id: string;
  /** Sent back with every state-changing request (a hidden field), compared in constant time. */
  csrf: string;
  lastSeen: number;
  /** One line shown on the next page, then forgotten (the answer to the last action). */
  flash?: string | undefined;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function same(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

function cookieValue(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** What a sign-in attempt came to: a session, a wrong token, or a wait before any is checked. */
export type SignIn =
  | { kind: 'signed-in'; session: ConsoleSession }
  | { kind: 'wrong' }
  | { kind: 'wait'; ms: number };

/**
 * The console's sign-in: the serve token is exchanged once for a session cookie that scripts
 * cannot read (HttpOnly), other sites cannot send (SameSite=Strict) and only /console receives.
 * Wrong tokens make their address wait (store/failed-attempts.ts).
 */
export class ConsoleAuth {
  readonly #token: Buffer;
  readonly #sessions = new Map<string, ConsoleSession>();
  readonly #attempts: FailedAttempts;

  constructor(token: string, attempts = new FailedAttempts()) {
    this.#token = digest(token);
    this.#attempts = attempts;
  }

  /** A new session for the right token from an address that need not wait. */
  exchange(presented: string, address: string | undefined): SignIn {
    const wait = this.#attempts.waitMs(address);
    if (wait > 0) return { kind: 'wait', ms: wait };
    if (!timingSafeEqual(digest(presented), this.#token)) {
      if (presented) this.#attempts.failed(address);
      return { kind: 'wrong' };
    }
    const session: ConsoleSession = {
      id: randomBytes(32).toString('base64url'),
      csrf: randomBytes(32).toString('base64url'),
      lastSeen: Date.now(),
    };
    this.#sessions.set(session.id, session);
    return { kind: 'signed-in', session };
  }

  cookieFor(session: ConsoleSession): string {
    return `${COOKIE}=${session.id}; HttpOnly; SameSite=Strict; Path=/console`;
  }

  clearingCookie(): string {
    return `${COOKIE}=; HttpOnly; SameSite=Strict; Path=/console; Max-Age=0`;
  }

  sessionOf(request: IncomingMessage): ConsoleSession | undefined {
    const id = cookieValue(request, COOKIE);
    const session = id ? this.#sessions.get(id) : undefined;
    if (!session) return undefined;
    if (Date.now() - session.lastSeen > IDLE_MS) {
      this.#sessions.delete(session.id);
      return undefined;
    }
    session.lastSeen = Date.now();
    return session;
  }

  end(session: ConsoleSession): void {
    this.#sessions.delete(session.id);
  }

  csrfMatches(session: ConsoleSession, presented: string | null | undefined): boolean {
    return typeof presented === 'string' && same(presented, session.csrf);
  }
}

/**
 * Whether the request comes to a name this console answers to (a page on another name that
 * resolves to 127.0.0.1, DNS rebinding, is refused) and, for a state change, from a page of the
 * console itself: the Origin must be this very host.
 */
export function hostAllowed(request: IncomingMessage, hosts: ReadonlySet<string>): boolean {
  const host = request.headers.host;
  return host !== undefined && hosts.has(host.toLowerCase());
}

export function sameOrigin(request: IncomingMessage, hosts: ReadonlySet<string>): boolean {
  const origins = request.headersDistinct.origin;
  if (origins?.length !== 1) return false;
  const host = request.headers.host?.toLowerCase();
  return host !== undefined && hosts.has(host) && origins[0] === `http://${host}`;
}

/** The names a console listening on host:port answers to. */
export function hostsFor(host: string, port: number): Set<string> {
  const loopback = host === 'localhost' || host === '::1' || host.startsWith('127.');
  const names = loopback
    ? ['127.0.0.1', 'localhost', '[::1]', host]
    : [host.includes(':') ? `[${host}]` : host];
  return new Set(names.map((name) => `${name}:${port}`.toLowerCase()));
}
