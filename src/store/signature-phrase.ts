import { hashValue } from './canonical.js';

/** Hex digits of the input's digest shown to a person: enough that no two inputs they see share one. */
const DIGEST_CHARS = 8;

/**
 * A short digest of a held call's canonical input as stored, secrets masked: what the person
 * is shown beside the preview, and what anyone can compute again from the stored call. The
 * masked input, not the raw one, so that no part of a secret's hash ever leaves the store.
 */
export function inputDigest(maskedInput: unknown): string {
  return hashValue(maskedInput).slice(0, DIGEST_CHARS);
}

/**
 * The phrase a signature gate asks a person to type: the tool and the digest of the input it
 * will run with. It binds the yes to that input, so a phrase typed from habit, or copied from
 * another held call of the same tool, does not sign this one.
 */
export function signaturePhrase(tool: string, digest: string): string {
  return `${tool} ${digest}`;
}
