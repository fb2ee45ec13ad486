import { randomBytes } from 'node:crypto';
import type { Client } from '@xmpp/client';
import type { Element } from '@xmpp/xml';
import type { ToolContext } from '../../contract/context.js';
import { type ErrorCode, isLiftError, LiftError } from '../../contract/errors.js';
import { neverConnected } from '../../contract/unreachable.js';
import { useNativeScram } from './scram.js';
import type { ResolvedChatSettings } from './settings.js';

export type { Element };

type Xmpp = typeof import('@xmpp/client');
/** The XMPP library (about a hundred modules), loaded by the first connection, not by the tools' declarations. */
let xmpp: Xmpp | undefined;

/**
 * Builds a stanza. Stanzas are built only for a session that is open, and opening one
 * loaded the library; a call before that is a bug in Lift.
 */
export function xml(...args: Parameters<Xmpp['xml']>): Element {
  if (!xmpp) throw new Error('A chat stanza was built before any chat session opened.');
  return xmpp.xml(...args);
}

/** IQ and stanza waits are bounded by this, and by the call's deadline. */
const WAIT_MS = 15_000;

export function newId(): string {
  return `lift-${randomBytes(8).toString('hex')}`;
}

/** Stanza errors as Lift's codes: what the server said, for the model to act on. */
const CONDITIONS: Record<string, ErrorCode> = {
  'item-not-found': 'NOT_FOUND',
  'recipient-unavailable': 'NOT_FOUND',
  'remote-server-not-found': 'NOT_FOUND',
  forbidden: 'POLICY_BLOCKED',
  'not-allowed': 'POLICY_BLOCKED',
  'not-acceptable': 'POLICY_BLOCKED',
  'registration-required': 'POLICY_BLOCKED',
  'not-authorized': 'AUTH_REQUIRED',
  'bad-request': 'BAD_INPUT',
  'resource-constraint': 'RATE_LIMITED',
  'policy-violation': 'POLICY_BLOCKED',
  conflict: 'CONFLICT',
  'file-too-large': 'BAD_INPUT',
};

/** One logged-in XMPP connection for one call: IQs, sends, and waits for the stanzas that answer them. */
export class ChatSession {
  readonly #client: Client;
  readonly #ctx: ToolContext;
  readonly #listeners = new Set<(stanza: Element) => void>();
  readonly jid: string;

  private constructor(client: Client, ctx: ToolContext, jid: string) {
    this.#client = client;
    this.#ctx = ctx;
    this.jid = jid;
    client.on('stanza', (stanza: Element) => {
      for (const listener of this.#listeners) listener(stanza);
    });
  }

  /** Connects and logs in with the password from the secret store; a refused login is AUTH_REQUIRED. */
  static async open(ctx: ToolContext, settings: ResolvedChatSettings): Promise<ChatSession> {
    const [username = '', domain = ''] = settings.account.jid.split('@');
    const scheme = settings.server.tls === 'implicit' ? 'xmpps' : 'xmpp';
    xmpp ??= await import('@xmpp/client');
    const client = xmpp.client({
      service: `${scheme}://${settings.server.host ?? domain}:${settings.server.port}`,
      domain,
      username,
      password: ctx.secret(settings.account.passwordSecret),
      resource: `lift-${randomBytes(3).toString('hex')}`,
      timeout: Math.min(WAIT_MS, Math.max(1_000, ctx.deadline - Date.now())),
    });
    client.reconnect.stop();
    useNativeScram((client as unknown as { saslFactory: unknown }).saslFactory);
    // Failures reach us through start() and the calls; an unhandled 'error' event would end the process.
    client.on('error', () => {});
    const abort = () => void client.stop().catch(() => {});
    ctx.signal.addEventListener('abort', abort, { once: true });
    try {
      const address = await client.start();
      return new ChatSession(client, ctx, address.bare().toString());
    } catch (error) {
      ctx.signal.removeEventListener('abort', abort);
      await client.stop().catch(() => {});
      throw loginFailure(error, settings);
    }
  }

  async close(): Promise<void> {
    try {
      await this.#client.send(xml('presence', { type: 'unavailable' }));
    } catch {
      // Already gone.
    }
    await this.#client.stop().catch(() => {});
  }

  async send(stanza: Element): Promise<void> {
    await this.#client.send(stanza);
  }

  /** An IQ to `to`; a stanza error comes back as the matching Lift error. */
  async iq(type: 'get' | 'set', to: string | undefined, child: Element, what: string): Promise<Element> {
    const stanza = xml('iq', { type, ...(to ? { to } : {}), id: newId() }, child);
    try {
      return await this.#client.iqCaller.request(stanza, this.#waitMs());
    } catch (error) {
      throw stanzaFailure(error, what);
    }
  }

  /**
   * Calls `start` and resolves with the first stanza `match` accepts (a stanza `match` throws on is
   * an answer too: its error), or fails once the wait is over.
   */
  async exchange<T>(
    start: () => Promise<void>,
    match: (stanza: Element) => T | undefined,
    what: string,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new LiftError('TIMEOUT', `${what}: no answer from the server.`)),
        this.#waitMs(),
      );
      const listener = (stanza: Element) => {
        try {
          const value = match(stanza);
          if (value !== undefined) finish(undefined, value);
        } catch (error) {
          finish(error);
        }
      };
      const finish = (error: unknown, value?: T) => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
        if (error) reject(stanzaFailure(error, what));
        else resolve(value as T);
      };
      this.#listeners.add(listener);
      start().catch((error: unknown) => finish(error));
    });
  }

  #waitMs(): number {
    return Math.max(500, Math.min(WAIT_MS, this.#ctx.deadline - Date.now() - 250));
  }
}

/** Runs `work` in a session that is closed after, whatever happens. */
export async function withChat<T>(
  ctx: ToolContext,
  settings: ResolvedChatSettings,
  work: (session: ChatSession) => Promise<T>,
): Promise<T> {
  const session = await ChatSession.open(ctx, settings);
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}

function loginFailure(error: unknown, settings: ResolvedChatSettings): LiftError {
  if (isLiftError(error)) return error;
  const failure = error as { name?: string; condition?: string; code?: string; message?: string };
  if (failure.name === 'SASLError') {
    return new LiftError(
      'AUTH_REQUIRED',
      `The XMPP server refused the login of ${settings.account.jid} with the password stored as '${settings.account.passwordSecret}' (${failure.condition ?? 'refused'}).`,
      {
        hint: `A person stores the right password: lift secrets set ${settings.account.passwordSecret}. Nothing was posted.`,
        outcome: 'not_started',
      },
    );
  }
  return new LiftError(
    neverConnected(error) ? 'UPSTREAM_UNAVAILABLE' : 'UPSTREAM_ERROR',
    `The XMPP server did not take the connection (${failure.code ?? failure.message ?? 'no reason'}).`,
    {
      hint: 'Check that the chat server runs and is reachable, then call again.',
      outcome: 'not_started',
      cause: error,
    },
  );
}

/** An error stanza (or a stanza error from the IQ caller) as a Lift error. */
export function stanzaFailure(error: unknown, what: string): LiftError {
  if (isLiftError(error)) return error;
  const failure = error as { name?: string; condition?: string; text?: string; message?: string };
  if (failure.name === 'StanzaError' && failure.condition) {
    const code = CONDITIONS[failure.condition] ?? 'UPSTREAM_ERROR';
    return new LiftError(
      code,
      `${what}: the server answered ${failure.condition}${failure.text ? ` (${failure.text})` : ''}.`,
      {
        cause: error,
      },
    );
  }
  if (failure.name === 'TimeoutError') return new LiftError('TIMEOUT', `${what}: no answer from the server.`);
  return new LiftError('UPSTREAM_ERROR', `${what} failed: ${failure.message ?? String(error)}`, {
    cause: error,
  });
}

/** The error a stanza of type error carries, as a Lift error. */
export function errorOf(stanza: Element, what: string): LiftError {
  const error = stanza.getChild('error');
  const condition = error?.children.find(
    (child): child is Element =>
      typeof child !== 'string' &&
      child.attrs.xmlns === 'urn:ietf:params:xml:ns:xmpp-stanzas' &&
      child.name !== 'text',
  );
  const text = error?.getChildText('text', 'urn:ietf:params:xml:ns:xmpp-stanzas') ?? undefined;
  return stanzaFailure(
    { name: 'StanzaError', condition: condition?.name ?? 'undefined-condition', text },
    what,
  );
}
