import { randomBytes } from 'node:crypto';

/** The secret that signs people in to the console and clients in to `lift serve --http`. */
export const TOKEN_SECRET = 'serve_token';

/** Below this, a guesser with time (or a leaked hash) has a chance. */
export const MIN_TOKEN_BITS = 128;

export const GENERATE_HINT = `lift secrets generate ${TOKEN_SECRET} stores a random one (256 bits); add --out FILE to hand it to a client.`;

/** 32 random bytes as base64url: 43 characters, 256 bits. */
export function newServeToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Bits per character of the alphabet the token is written in: digits, hex, base64url or
 * base64 when it fits one of those (as random tokens are written), else the character
 * classes it uses.
 */
function alphabetBits(token: string): number {
  if (/^[0-9]+$/.test(token)) return Math.log2(10);
  if (/^[0-9a-f]+$/.test(token) || /^[0-9A-F]+$/.test(token)) return 4;
  const bothCases = /[a-z]/.test(token) && /[A-Z]/.test(token);
  if (bothCases && (/^[A-Za-z0-9_-]+$/.test(token) || /^[A-Za-z0-9+/]+=*$/.test(token))) return 6;
  if (/[^A-Za-z0-9]/.test(token)) return Math.log2(95);
  let size = 0;
  if (/[a-z]/.test(token)) size += 26;
  if (/[A-Z]/.test(token)) size += 26;
  if (/[0-9]/.test(token)) size += 10;
  return Math.log2(size);
}

/** Length of the longest text starting at `at` that also starts earlier (a repeat costs little). */
function repeatAt(chars: string[], at: number): number {
  let longest = 0;
  for (let from = 0; from < at; from++) {
    let length = 0;
    while (at + length < chars.length && chars[from + length] === chars[at + length]) length++;
    longest = Math.max(longest, length);
  }
  return longest;
}

/** Characters in a row that a run must have before the next one is predictable. */
const RUN = 4;

/** Whether the character goes on a run (`aaaaa`, `abcde`, `98765`): each step the same, 0 or 1. */
function extendsRun(chars: string[], at: number): boolean {
  if (at < RUN) return false;
  const code = (back: number) => chars[at - back]?.codePointAt(0) ?? 0;
  const step = code(0) - code(1);
  if (Math.abs(step) > 1) return false;
  for (let back = 1; back < RUN; back++) if (code(back) - code(back + 1) !== step) return false;
  return true;
}

/**
 * The token's entropy as an attacker would estimate it: its length times the bits of the
 * alphabet it uses, minus what is predictable. A run (`aaaa`, `1234`) and a repeat of
 * something earlier cost next to nothing; in a token whose letters are all of one case,
 * a run of letters is read as a word and counts three letters at most
 * (`canary-serve-token-7f3a9c` is far weaker than its 25 characters suggest). An estimate,
 * meant to catch short and patterned tokens, not to prove a token random.
 */
export function estimatedBits(token: string): number {
  const chars = [...token];
  const perChar = alphabetBits(token);
  const oneCase = /[a-z]/.test(token) !== /[A-Z]/.test(token);
  const wordy = oneCase && perChar > 4;
  let bits = 0;
  for (let at = 0; at < chars.length; ) {
    const repeat = repeatAt(chars, at);
    if (repeat >= 5) {
      bits += Math.log2(at + 1) + Math.log2(repeat);
      at += repeat;
      continue;
    }
    if (wordy && /\p{L}/u.test(chars[at] ?? '')) {
      let end = at;
      while (end < chars.length && /\p{L}/u.test(chars[end] ?? '')) end++;
      bits += Math.min(end - at, 3) * perChar;
      at = end;
      continue;
    }
    // Base64's padding says only how long the data was.
    if (!extendsRun(chars, at) && !(chars[at] === '=' && /^=*$/.test(token.slice(at)))) bits += perChar;
    at++;
  }
  return bits;
}

/** Why the token is too weak to guard Lift, with what to do; undefined when it is strong enough. */
export function weakTokenProblem(token: string): string | undefined {
  const bits = Math.floor(estimatedBits(token));
  if (bits >= MIN_TOKEN_BITS) return undefined;
  return `The ${TOKEN_SECRET} holds about ${bits} bits of entropy; at least ${MIN_TOKEN_BITS} are needed (22 random base64url or 32 random hex characters).`;
}
