import { createTransport } from 'nodemailer';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { loginOf, type ResolvedEmailSettings } from './settings.js';

export interface Submitted {
  accepted: string[];
  rejected: string[];
  /** The server's last reply, e.g. `250 2.0.0 Ok: queued as 4XyZ12`. */
  response: string;
  /** The queue id in that reply, when the server names one. */
  queueId: string | undefined;
}

/** Commands before which nothing of the message reached the server. */
const BEFORE_DATA = new Set([
  'CONN',
  'EHLO',
  'HELO',
  'STARTTLS',
  'AUTH PLAIN',
  'AUTH LOGIN',
  'AUTH',
  'MAIL FROM',
  'RCPT TO',
]);

/**
 * Submits a finished message exactly as it is (its bytes are what the person approved) over SMTP
 * submission, with the account's login. Marks the call started just before the message goes.
 */
export async function submitMessage(
  ctx: ToolContext,
  settings: ResolvedEmailSettings,
  envelope: { from: string; to: string[] },
  raw: Buffer,
): Promise<Submitted> {
  const { smtp, account } = settings;
  const timeout = Math.max(1_000, ctx.deadline - Date.now());
  const transport = createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.tls === 'implicit',
    requireTLS: smtp.tls === 'starttls',
    ignoreTLS: smtp.tls === 'none',
    auth: { user: loginOf(settings), pass: ctx.secret(account.passwordSecret) },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const abort = () => transport.close();
  ctx.signal.addEventListener('abort', abort, { once: true });
  try {
    ctx.markStarted();
    const info = await transport.sendMail({ envelope, raw });
    return {
      accepted: info.accepted.map(String),
      rejected: info.rejected.map(String),
      response: info.response,
      queueId: /queued as ([A-Za-z0-9]+)/i.exec(info.response)?.[1],
    };
  } catch (error) {
    throw smtpFailure(error, settings);
  } finally {
    ctx.signal.removeEventListener('abort', abort);
    transport.close();
  }
}

function smtpFailure(error: unknown, settings: ResolvedEmailSettings): LiftError {
  const failure = error as {
    code?: string;
    command?: string;
    response?: string;
    message?: string;
    rejected?: string[];
  };
  const said = failure.response ?? failure.message ?? 'no reason given';
  if (failure.code === 'EAUTH') {
    return new LiftError(
      'AUTH_REQUIRED',
      `The SMTP server refused the login of ${loginOf(settings)} with the password stored as '${settings.account.passwordSecret}'.`,
      {
        hint: `A person stores the right password: lift secrets set ${settings.account.passwordSecret}. Nothing was sent.`,
        outcome: 'not_started',
      },
    );
  }
  if (failure.code === 'EENVELOPE') {
    return new LiftError('POLICY_BLOCKED', `The SMTP server refused the recipients: ${said}`, {
      hint: 'Nothing was sent. Check the addresses in the draft, save it again and ask for a new approval.',
      outcome: 'not_started',
    });
  }
  if (failure.code === 'EMESSAGE') {
    return new LiftError('UPSTREAM_ERROR', `The SMTP server refused the message: ${said}`, {
      hint: 'Nothing was sent. The server says why; change the draft (size, content) and try again.',
      outcome: 'not_started',
    });
  }
  const before = failure.command === undefined || BEFORE_DATA.has(failure.command);
  return new LiftError(
    'UPSTREAM_ERROR',
    `The SMTP server ${settings.smtp.host}:${settings.smtp.port} failed${failure.command ? ` at ${failure.command}` : ''}: ${said}`,
    before
      ? {
          hint: 'Nothing was sent; check the mail server and try again.',
          outcome: 'not_started',
          cause: error,
        }
      : { outcome: 'unknown', cause: error },
  );
}
