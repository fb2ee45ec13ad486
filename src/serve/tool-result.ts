import { pathToFileURL } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  describeEnvelope,
  type Envelope,
  isError,
  isPending,
  type PendingEnvelope,
} from '../contract/envelope.js';
import { approvalUri } from './approval-status.js';
import { mimeTypeOf } from './mime.js';

/** Files an envelope names, to offer as resources instead of pushing their content into the result. */
export function filesOf(envelope: Envelope): Array<{ key: string; path: string }> {
  if (isError(envelope) || isPending(envelope)) return [];
  return Object.entries(envelope.files).map(([key, path]) => ({ key, path }));
}

export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}

/**
 * What a held call says first, so that no reader takes it for done: it did not run, who
 * decides, and how to learn what became of it without calling again.
 */
function pendingText(envelope: PendingEnvelope): string {
  const { approval_id, gate, preview, input_digest, confirmation_phrase } = envelope.pending;
  const phrase = confirmation_phrase ? ` --phrase "${confirmation_phrase}"` : '';
  return [
    `PENDING APPROVAL, NOT RUN: ${envelope.tool} is held for ${gate} (approval ${approval_id}). Nothing has changed yet.`,
    `Preview: ${preview}${input_digest ? ` (input digest ${input_digest})` : ''}`,
    `A person approves or denies it (in this client when asked, or: lift approve ${approval_id}${phrase}). Do not call it again; ask approval_status {"approval_id":"${approval_id}"} for its state and, once it ran, its result.`,
  ].join('\n');
}

/** The lines a client that ignores structured content shows before the envelope's JSON. */
function headline(envelope: Envelope): string {
  if (isPending(envelope)) return pendingText(envelope);
  if (isError(envelope)) return `${describeEnvelope(envelope)}\nHint: ${envelope.error.hint}`;
  return describeEnvelope(envelope);
}

/**
 * An envelope as an MCP tool result: the envelope as structured content; as text, a
 * headline and then the same envelope serialised (the 2025-06-18 spec: a tool returning
 * structured content SHOULD also return it as JSON text, for clients that read only
 * `content`); links to the files it names, with their MIME types. Failures and held calls
 * are isError results: neither did what was asked, and the text says which it is.
 */
export function toCallToolResult(envelope: Envelope): CallToolResult {
  const links = filesOf(envelope).map(({ key, path }) => ({
    type: 'resource_link' as const,
    uri: fileUri(path),
    name: `${envelope.tool} ${key}`,
    mimeType: mimeTypeOf(path),
  }));
  if (isPending(envelope)) {
    links.push({
      type: 'resource_link',
      uri: approvalUri(envelope.pending.approval_id),
      name: `approval ${envelope.pending.approval_id}`,
      mimeType: 'application/json',
    });
  }
  return {
    content: [
      { type: 'text', text: headline(envelope) },
      { type: 'text', text: JSON.stringify(envelope) },
      ...links,
    ],
    structuredContent: envelope as unknown as Record<string, unknown>,
    isError: !envelope.ok || isPending(envelope),
  };
}
