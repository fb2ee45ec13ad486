import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** RFC 8785 canonical JSON: sorted keys, no whitespace, so equal values hash equally. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('Value cannot be represented as canonical JSON.');
  return text;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function hashValue(value: unknown): string {
  return sha256(canonicalJson(value));
}
