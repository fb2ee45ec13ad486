import { pathToFileURL } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeEnvelope, type Envelope, isError, isPending } from '../contract/envelope.js';

/** Files an envelope names, to offer as resources instead of pushing their content into the result. */
export function filesOf(envelope: Envelope): Array<{ key: string; path: string }> {
  if (isError(envelope) || isPending(envelope)) return [];
  return Object.entries(envelope.files).map(([key, path]) => ({ key, path }));
}

export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}

/** The short text a client that ignores structured content still shows. */
function summaryText(envelope: Envelope): string {
  const line = describeEnvelope(envelope);
  if (isError(envelope)) {
    const { hint, retry, outcome, settle } = envelope.error;
    return [
      line,
      `Hint: ${hint}`,
      `Retry: ${retry}${outcome ? ` (outcome ${outcome})` : ''}`,
      settle ? `Settle: ${settle}` : '',
    ]
      .filter(Boolean)
      .join('\n');
  }
  if (isPending(envelope)) {
    const { approval_id, preview, confirmation_phrase } = envelope.pending;
    const phrase = confirmation_phrase ? ` --phrase "${confirmation_phrase}"` : '';
    return `${line}\nPreview: ${preview}\nA person approves it with: lift approve ${approval_id}${phrase}`;
  }
  return envelope.truncated ? `${line}\nTruncated: ${envelope.narrow ?? ''}` : line;
}

/**
 * An envelope as an MCP tool result: the envelope itself as structured content, a short
 * text summary, and links to the files it names. Tool failures (an error envelope, a
 * failed check) are results with isError, so the model reads the code and the hint.
 */
export function toCallToolResult(envelope: Envelope): CallToolResult {
  const links = filesOf(envelope).map(({ key, path }) => ({
    type: 'resource_link' as const,
    uri: fileUri(path),
    name: `${envelope.tool} ${key}`,
    ...(path.endsWith('.json') ? { mimeType: 'application/json' } : {}),
  }));
  return {
    content: [{ type: 'text', text: summaryText(envelope) }, ...links],
    structuredContent: envelope as unknown as Record<string, unknown>,
    isError: !envelope.ok,
  };
}
