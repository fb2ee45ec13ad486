import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { neverConnected } from '../../contract/unreachable.js';
import type { ApiAuth } from './tool-file.js';

/** One HTTP request as the API rung sends it; credentials are added at send time, never stored here. */
export interface ApiRequest {
  method: string;
  url: URL;
  /** The path template (`/tickets/{id}`), used in events and messages instead of the filled-in URL. */
  template: string;
  headers: Record<string, string>;
  body?: string;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface SendPolicy {
  write: boolean;
  /** Extra attempts after a server error or a dropped connection; reads only. */
  retries: number;
  auth: ApiAuth | undefined;
  /** Tool-specific hints by error code (from the tool file). */
  hints: Record<string, string>;
  settle: string | undefined;
}

const MAX_BODY_BYTES = 5_000_000;
const MAX_RATE_LIMIT_WAITS = 2;
const RETRY_BACKOFF_MS = 250;

function authHeaders(auth: ApiAuth | undefined, ctx: ToolContext): Record<string, string> {
  switch (auth?.kind) {
    case undefined:
    case 'none':
      return {};
    case 'bearer':
      return { authorization: `Bearer ${ctx.secret(auth.secret)}` };
    case 'basic':
      return { authorization: `Basic ${Buffer.from(ctx.secret(auth.secret)).toString('base64')}` };
    case 'header':
      return { [auth.name]: ctx.secret(auth.secret) };
    case 'cookie':
      return { cookie: `${auth.name}=${ctx.secret(auth.secret)}` };
  }
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The server's own words about what went wrong, short enough for a hint. */
export function serverMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'error_description', 'detail', 'error', 'title']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) return value.trim().slice(0, 300);
    if (value && typeof value === 'object') {
      const nested = serverMessage(value);
      if (nested) return nested;
    }
  }
  const errors = record.errors;
  if (Array.isArray(errors) && errors.length > 0)
    return serverMessage(errors[0]) ?? JSON.stringify(errors[0]).slice(0, 300);
  return undefined;
}

/**
 * Every form in which the credential travels: the stored value, its Basic encoding and the
 * password half of a Basic pair. A server that echoes any of them gets it replaced before
 * the body is parsed, so no envelope, hint or log can carry it.
 */
function credentialForms(auth: ApiAuth | undefined, ctx: ToolContext): Array<{ form: string; name: string }> {
  if (!auth || auth.kind === 'none' || !ctx.hasSecret(auth.secret)) return [];
  const value = ctx.secret(auth.secret);
  const forms = [value];
  if (auth.kind === 'basic') {
    forms.push(Buffer.from(value).toString('base64'));
    const password = value.slice(value.indexOf(':') + 1);
    if (value.includes(':') && password.length >= 4) forms.push(password);
  }
  return forms.filter((form) => form.length >= 4).map((form) => ({ form, name: auth.secret }));
}

function redact(text: string, forms: Array<{ form: string; name: string }>): string {
  let clean = text;
  for (const { form, name } of forms.sort((a, b) => b.form.length - a.form.length)) {
    clean = clean.split(form).join(`[secret:${name}]`);
    const escaped = JSON.stringify(form).slice(1, -1);
    if (escaped !== form) clean = clean.split(escaped).join(`[secret:${name}]`);
  }
  return clean;
}

async function readBody(response: Response, forms: Array<{ form: string; name: string }>): Promise<unknown> {
  const length = Number(response.headers.get('content-length') ?? '0');
  if (length > MAX_BODY_BYTES) {
    await response.body?.cancel();
    throw new LiftError(
      'SURFACE_CHANGED',
      `The response is ${length} bytes, more than the ${MAX_BODY_BYTES} the tool reads.`,
      {
        hint: 'Narrow the call (filters, a smaller page size) or raise the cap in the tool file.',
      },
    );
  }
  const text = redact(await response.text(), forms);
  if (text.length > MAX_BODY_BYTES)
    throw new LiftError('SURFACE_CHANGED', 'The response is larger than the tool reads.');
  if (text.length === 0) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      if (response.ok)
        throw new LiftError('SURFACE_CHANGED', 'The API declared JSON but sent something else.');
    }
  }
  return text;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Maps a non-2xx answer to Lift's catalogue. Only server errors on writes leave the outcome unknown. */
function errorFor(request: ApiRequest, response: ApiResponse, policy: SendPolicy): LiftError {
  const where = `${request.method.toUpperCase()} ${request.template}`;
  const said = serverMessage(response.body);
  const saying = said ? `: ${said}` : '';
  const hint = (code: string, fallback: string) =>
    (said && code === 'BAD_INPUT' ? undefined : policy.hints[code]) ?? fallback;
  const status = response.status;
  const details = { status };
  if (status === 401 || status === 403) {
    const secret = policy.auth && policy.auth.kind !== 'none' ? policy.auth.secret : undefined;
    return new LiftError('AUTH_REQUIRED', `${where} was refused with HTTP ${status}.`, {
      hint: secret
        ? `The credential in secret '${secret}' was refused or lacks permission. A person must store a valid one (lift secrets set ${secret}); the model cannot supply it.`
        : 'The API wants a credential this tool does not send. Add auth to the tool file and store the secret.',
      outcome: 'not_started',
      details,
    });
  }
  if (status === 404) {
    return new LiftError('NOT_FOUND', `${where} found nothing (HTTP 404)${saying}.`, {
      hint: hint('NOT_FOUND', 'Check the identifier, or list the records first.'),
      outcome: 'not_started',
      details,
    });
  }
  if (status === 409) {
    return new LiftError(
      'CONFLICT',
      `${where} conflicts with the record's current state (HTTP 409)${saying}.`,
      {
        hint: hint('CONFLICT', 'Read the record again, then decide whether the call still makes sense.'),
        outcome: 'not_started',
        details,
      },
    );
  }
  if (status === 400 || status === 422) {
    return new LiftError('BAD_INPUT', `${where} rejected the input (HTTP ${status})${saying}.`, {
      hint: said
        ? `The API says: ${said}. Fix that field and call again.`
        : hint('BAD_INPUT', 'Fix the input and call again.'),
      outcome: 'not_started',
      details,
    });
  }
  if (status === 429) {
    const wait = retryAfterMs(response.headers.get('retry-after'));
    const seconds = wait === undefined ? undefined : Math.ceil(wait / 1000);
    return new LiftError('RATE_LIMITED', `${where} was rate limited (HTTP 429).`, {
      hint:
        seconds === undefined
          ? 'The API asked to slow down without saying for how long. Wait a minute, then call again.'
          : `The API asked to wait ${seconds} s (Retry-After), longer than this call's deadline allows. Call again after that.`,
      outcome: 'not_started',
      details: { ...details, ...(seconds === undefined ? {} : { retry_after_seconds: seconds }) },
    });
  }
  if (status >= 500) {
    return new LiftError('UPSTREAM_ERROR', `${where} failed on the server (HTTP ${status})${saying}.`, {
      hint: policy.write
        ? `The write may or may not have landed. Run the settle read${policy.settle ? ` (${policy.settle})` : ''} before any retry.`
        : 'The server failed on every attempt this call allowed. Try again later.',
      outcome: policy.write ? 'unknown' : 'not_started',
      ...(policy.write && policy.settle ? { settle: policy.settle } : {}),
      details,
    });
  }
  return new LiftError(
    'SURFACE_CHANGED',
    `${where} answered HTTP ${status}, which its description does not cover.`,
    {
      outcome: policy.write ? 'unknown' : 'not_started',
      details,
    },
  );
}

/**
 * Sends one request under the call's deadline (ctx.signal). Reads retry server errors and
 * dropped connections a bounded number of times; writes never retry what may have landed.
 * A 429 is waited out when its Retry-After fits in the deadline, otherwise returned.
 */
export async function send(request: ApiRequest, policy: SendPolicy, ctx: ToolContext): Promise<ApiResponse> {
  const headers = { accept: 'application/json', ...request.headers, ...authHeaders(policy.auth, ctx) };
  const forms = credentialForms(policy.auth, ctx);
  let failures = 0;
  let waits = 0;
  for (let attempt = 1; ; attempt++) {
    ctx.markStarted();
    const started = Date.now();
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method.toUpperCase(),
        headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        signal: ctx.signal,
        redirect: 'manual',
      });
    } catch (error) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      ctx.emit({
        type: 'http-request-sent',
        method: request.method,
        path: request.template,
        attempt,
        error: 'connection failed',
      });
      if (!policy.write && failures < policy.retries) {
        failures++;
        await sleep(RETRY_BACKOFF_MS * failures, ctx.signal);
        continue;
      }
      // A connection never made sent nothing; any other drop may have happened after the request left.
      const unreachable = neverConnected(error);
      const unknown = policy.write && !unreachable;
      throw new LiftError(
        unreachable ? 'UPSTREAM_UNAVAILABLE' : 'UPSTREAM_ERROR',
        `Could not reach the API for ${request.method.toUpperCase()} ${request.template}.`,
        {
          hint: 'Check that the API is up and that base_url in the tool file is right.',
          outcome: unknown ? 'unknown' : 'not_started',
          ...(unknown && policy.settle ? { settle: policy.settle } : {}),
          cause: error,
        },
      );
    }
    const body = await readBody(response, forms);
    ctx.emit({
      type: 'http-request-sent',
      method: request.method,
      path: request.template,
      status: response.status,
      attempt,
      ms: Date.now() - started,
    });
    const answer: ApiResponse = { status: response.status, headers: response.headers, body };
    if (response.status >= 200 && response.status < 300) return answer;
    if (response.status === 429 && waits < MAX_RATE_LIMIT_WAITS) {
      const wait = retryAfterMs(response.headers.get('retry-after'));
      if (wait !== undefined && Date.now() + wait + 250 < ctx.deadline) {
        waits++;
        ctx.emit({ type: 'rate-limit-waited', path: request.template, ms: wait });
        await sleep(wait, ctx.signal);
        continue;
      }
    }
    if (response.status >= 500 && !policy.write && failures < policy.retries) {
      failures++;
      await sleep(RETRY_BACKOFF_MS * failures, ctx.signal);
      continue;
    }
    throw errorFor(request, answer, policy);
  }
}
