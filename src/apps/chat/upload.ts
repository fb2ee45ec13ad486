import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { type TimeoutSignal, timeoutSignal } from '../../contract/timeout-signal.js';
import { type ChatSession, xml } from './session.js';
import { domainOf, type ResolvedChatSettings } from './settings.js';
import { discoInfo } from './target.js';

const UPLOAD = 'urn:xmpp:http:upload:0';
const DISCO_ITEMS = 'http://jabber.org/protocol/disco#items';

const TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.zip': 'application/zip',
};

export function contentTypeOf(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The upload service: the one the operator named, else the first the server lists with XEP-0363. */
export async function uploadService(session: ChatSession, settings: ResolvedChatSettings): Promise<string> {
  if (settings.upload) return settings.upload;
  const domain = domainOf(settings.account.jid);
  const reply = await session.iq('get', domain, xml('query', { xmlns: DISCO_ITEMS }), 'Listing the services');
  const items = reply.getChild('query', DISCO_ITEMS)?.getChildren('item') ?? [];
  for (const item of items) {
    const jid = String(item.attrs.jid ?? '');
    const info = await discoInfo(session, jid).catch(() => undefined);
    if (info?.features.has(UPLOAD)) return jid;
  }
  throw new LiftError('NOT_CONFIGURED', `The chat server ${domain} offers no HTTP file upload (XEP-0363).`, {
    hint: 'Post without a file, or the operator enables file sharing on the server (or names it in settings.chat.upload).',
    outcome: 'not_started',
  });
}

/** Headers a slot may ask the PUT to carry (XEP-0363 allows only these). */
const SLOT_HEADERS = new Set(['authorization', 'cookie', 'expires']);

/** Asks for an upload slot, PUTs the bytes, and returns the URL the file is now served at. */
export async function uploadFile(
  ctx: ToolContext,
  session: ChatSession,
  service: string,
  file: { name: string; bytes: Buffer },
): Promise<string> {
  const contentType = contentTypeOf(file.name);
  const request = xml('request', {
    xmlns: UPLOAD,
    filename: file.name,
    size: String(file.bytes.length),
    'content-type': contentType,
  });
  const reply = await session.iq('get', service, request, `Asking ${service} for an upload slot`);
  const slot = reply.getChild('slot', UPLOAD);
  const put = slot?.getChild('put');
  const get = slot?.getChild('get')?.attrs.url;
  if (!put?.attrs.url || !get) {
    throw new LiftError('SURFACE_CHANGED', `${service} answered the slot request without put and get URLs.`, {
      outcome: 'not_started',
    });
  }
  const headers: Record<string, string> = { 'content-type': contentType };
  for (const header of put.getChildren('header')) {
    const name = String(header.attrs.name ?? '').toLowerCase();
    if (SLOT_HEADERS.has(name)) headers[name] = header.getText();
  }
  ctx.markStarted();
  const bound = callBound(ctx);
  const response = await fetch(String(put.attrs.url), {
    method: 'PUT',
    body: new Uint8Array(file.bytes),
    headers,
    signal: bound.signal,
  })
    .catch((error: unknown) => {
      throw new LiftError(
        'UPSTREAM_ERROR',
        `The upload of ${file.name} failed: ${(error as Error).message}`,
        {
          outcome: 'unknown',
          cause: error,
        },
      );
    })
    .finally(bound.dispose);
  if (!response.ok) {
    throw new LiftError(
      'UPSTREAM_ERROR',
      `The upload of ${file.name} was refused: HTTP ${response.status}.`,
      {
        outcome: 'not_started',
      },
    );
  }
  return String(get);
}

/** The bytes a URL serves now, hashed, to compare with what was uploaded. */
export async function servedSha256(
  ctx: ToolContext,
  url: string,
): Promise<{ sha256: string; size: number } | undefined> {
  const bound = callBound(ctx);
  try {
    const response = await fetch(url, { signal: bound.signal }).catch(() => undefined);
    if (!response?.ok) return undefined;
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { sha256: sha256(bytes), size: bytes.length };
  } finally {
    bound.dispose();
  }
}

/** The call's signal, with at least a second for a request started just before its deadline. */
function callBound(ctx: ToolContext): TimeoutSignal {
  return timeoutSignal(Math.max(1_000, ctx.deadline - Date.now()), { follow: [ctx.signal] });
}
