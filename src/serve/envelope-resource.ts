import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { ENVELOPE_SCHEMA_URI, sharedEnvelopeSchema } from './to-json-schema.js';

/**
 * The envelope every tool answers with, described once: each tool's output schema describes
 * its own fields and points here for the shared members, so tools/list does not repeat them.
 */
export const envelopeResource: Resource = {
  uri: ENVELOPE_SCHEMA_URI,
  name: 'envelope schema',
  title: "The JSON Schema of every tool's result",
  description:
    'What every tool returns: a success (ok, summary, fields, checks, files, effect), a call held for a person (pending), or a failure (error with code, retry and hint). Each tool’s own output schema gives its fields.',
  mimeType: 'application/schema+json',
};

/** The resource's content, or undefined for any other URI. */
export function readEnvelopeResource(uri: string): ReadResourceResult | undefined {
  if (uri !== ENVELOPE_SCHEMA_URI) return undefined;
  return {
    contents: [{ uri, mimeType: 'application/schema+json', text: JSON.stringify(sharedEnvelopeSchema()) }],
  };
}
