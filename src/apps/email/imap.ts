import type { ImapFlow } from 'imapflow';
import type { ToolContext } from '../../contract/context.js';
import { isLiftError, LiftError } from '../../contract/errors.js';
import { neverConnected } from '../../contract/unreachable.js';
import type { ServerSettings } from './settings.js';

export interface ImapLogin {
  server: ServerSettings;
  user: string;
  passwordSecret: string;
}

/** Seconds left before the call's deadline, as milliseconds for a socket (at least one second). */
function remainingMs(ctx: ToolContext): number {
  return Math.max(1_000, ctx.deadline - Date.now());
}

/**
 * Runs `work` on an IMAP connection logged in as `login`, and logs out after, whatever happens.
 * A refused login is AUTH_REQUIRED, an unreachable server UPSTREAM_UNAVAILABLE (another failure to connect UPSTREAM_ERROR); the call's deadline
 * and cancellation close the connection.
 */
export async function withImap<T>(
  ctx: ToolContext,
  login: ImapLogin,
  work: (client: ImapFlow) => Promise<T>,
): Promise<T> {
  const password = ctx.secret(login.passwordSecret);
  // imapflow loads with the first mail call, not with Lift.
  const { ImapFlow } = await import('imapflow');
  const client = new ImapFlow({
    host: login.server.host,
    port: login.server.port,
    secure: login.server.tls === 'implicit',
    // STARTTLS is required when asked for (the password never crosses in clear), never tried on 'none'.
    ...(login.server.tls === 'implicit' ? {} : { doSTARTTLS: login.server.tls === 'starttls' }),
    auth: { user: login.user, pass: password },
    logger: false,
    connectionTimeout: remainingMs(ctx),
    greetingTimeout: remainingMs(ctx),
    socketTimeout: remainingMs(ctx),
    disableAutoIdle: true,
    clientInfo: { name: 'Lift' },
  });
  // An unhandled 'error' event would end the process; the failure reaches us through the calls.
  client.on('error', () => {});
  const abort = () => client.close();
  ctx.signal.addEventListener('abort', abort, { once: true });
  try {
    try {
      await client.connect();
    } catch (error) {
      throw connectFailure(error, login);
    }
    return await work(client);
  } catch (error) {
    throw isLiftError(error) ? error : imapFailure(error, 'IMAP');
  } finally {
    ctx.signal.removeEventListener('abort', abort);
    if (client.usable) await client.logout().catch(() => client.close());
    else client.close();
  }
}

function connectFailure(error: unknown, login: ImapLogin): LiftError {
  const failure = error as { authenticationFailed?: boolean; code?: string; message?: string };
  if (failure.authenticationFailed) {
    return new LiftError(
      'AUTH_REQUIRED',
      `The IMAP server refused the login of ${login.user} with the password stored as '${login.passwordSecret}'.`,
      {
        hint: `A person stores the right password: lift secrets set ${login.passwordSecret}. Nothing was changed.`,
        outcome: 'not_started',
      },
    );
  }
  return new LiftError(
    neverConnected(error) ? 'UPSTREAM_UNAVAILABLE' : 'UPSTREAM_ERROR',
    `The IMAP server ${login.server.host}:${login.server.port} did not answer (${failure.code ?? failure.message ?? 'no reason'}).`,
    {
      hint: 'Check that the mail server runs and is reachable, then call again.',
      outcome: 'not_started',
      cause: error,
    },
  );
}

/** An IMAP command that failed after login: the server's own words, as an upstream error. */
export function imapFailure(error: unknown, what: string): LiftError {
  const failure = error as { responseText?: string; message?: string; code?: string };
  return new LiftError(
    'UPSTREAM_ERROR',
    `${what} failed: ${failure.responseText ?? failure.message ?? failure.code ?? 'no reason given'}.`,
    { cause: error },
  );
}

/** The folder a server marks with a special use (\Drafts, \Sent), else the first one named like it. */
export async function specialFolder(
  client: ImapFlow,
  use: '\\Drafts' | '\\Sent',
  configured: string | undefined,
): Promise<string> {
  if (configured) return configured;
  const folders = await client.list();
  const marked = folders.find((folder) => folder.specialUse === use);
  if (marked) return marked.path;
  const name = use === '\\Drafts' ? 'Drafts' : 'Sent';
  const named = folders.find((folder) => folder.name.toLowerCase() === name.toLowerCase());
  if (named) return named.path;
  throw new LiftError('NOT_FOUND', `The mailbox has no ${name} folder (none is marked ${use}).`, {
    hint: `The operator names it in lift.config: "settings": { "email": { "folders": { "${name.toLowerCase()}": "..." } } }.`,
    outcome: 'not_started',
  });
}

/** UIDs in the open folder whose header `name` is exactly `value`, lowest first. */
export async function uidsWithHeader(client: ImapFlow, name: string, value: string): Promise<number[]> {
  const found = await client.search({ header: { [name]: value } }, { uid: true });
  // IMAP HEADER search matches substrings: keep only exact values.
  if (!found || found.length === 0) return [];
  const exact: number[] = [];
  for await (const message of client.fetch(found, { uid: true, headers: [name] }, { uid: true })) {
    const line = message.headers?.toString('utf8') ?? '';
    const values = line.split(/\r?\n(?![ \t])/).map((header) =>
      header
        .replace(/^[^:]*:\s*/, '')
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
    );
    if (values.includes(value)) exact.push(message.uid);
  }
  return exact.sort((a, b) => a - b);
}
