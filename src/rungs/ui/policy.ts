import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseYaml } from '../../config/yaml.js';
import { LiftError } from '../../contract/errors.js';
import { linearPattern, type TextPattern } from '../../contract/pattern.js';
import { UI_OPS } from './actions.js';

const Pattern = z.string().min(1).max(300);

/**
 * What a UI session may do, written by a person (YAML or JSON), checked in code on every
 * action and on every request the browser makes — navigations and redirects included —
 * before the request leaves the browser.
 */
export const UiPolicySchema = z.strictObject({
  version: z.literal(1).default(1),
  /** Origins the browser may reach, e.g. "http://127.0.0.1:8080"; `*` matches within a host or port. */
  origins: z.array(Pattern).min(1).max(50),
  /** Paths a page or frame may navigate to; `*` matches within a segment, `**` across segments. */
  paths: z.array(Pattern).max(200).default(['/**']),
  /** Paths never navigated to, even when `paths` allows them. */
  blockedPaths: z.array(Pattern).max(200).default([]),
  /** Action types the session accepts. */
  actions: z
    .array(z.enum(UI_OPS))
    .min(1)
    .default([...UI_OPS]),
  /** When present, only elements with these accessible names may be clicked (`*` wildcards allowed). */
  clickNames: z.array(Pattern).max(200).optional(),
  /** Accessible names that are never clicked or activated, whatever else allows it (whole words, any case). */
  blockedNames: z.array(Pattern).max(200).default(['Transfer']),
  /**
   * Whether an explorer may see the values it reads (still redacted: bound inputs as
   * placeholders, secrets masked). Off by default: an explorer learns only what kind of
   * value it read. For applications whose data is not sensitive.
   */
  showReads: z.boolean().optional(),
  budgets: z
    .strictObject({
      steps: z.number().int().min(1).max(1_000).default(60),
      seconds: z.number().int().min(1).max(7_200).default(600),
      rejected: z.number().int().min(0).max(100).default(10),
    })
    .default({ steps: 60, seconds: 600, rejected: 10 }),
});
export type UiPolicy = z.infer<typeof UiPolicySchema>;
export type UiPolicyInput = z.input<typeof UiPolicySchema>;

export function parsePolicy(value: unknown): UiPolicy {
  const result = UiPolicySchema.safeParse(value);
  if (!result.success) {
    throw new LiftError('BAD_INPUT', `The UI policy is not valid:\n${z.prettifyError(result.error)}`, {
      hint: 'Fix the policy file; origins is required, e.g. origins: ["http://127.0.0.1:8080"].',
    });
  }
  return result.data;
}

/** Reads a policy file; `.json` is JSON, anything else YAML (which also reads JSON). */
export function loadPolicy(file: string): UiPolicy {
  const text = readFileSync(file, 'utf8');
  return parsePolicy(file.endsWith('.json') ? JSON.parse(text) : parseYaml(text));
}

const compiledGlobs = new Map<string, TextPattern>();

/**
 * A policy glob as a whole-text match on RE2 (linear time): `*` stops at the segment's
 * characters, `**` does not. A glob with many stars cannot make a URL check backtrack.
 * Compiled once per glob and segment.
 */
function globPattern(pattern: string, segment: string): TextPattern {
  const key = `${segment}\0${pattern}`;
  const known = compiledGlobs.get(key);
  if (known) return known;
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '*' && pattern[index + 1] === '*') {
      source += '.*';
      index++;
    } else if (char === '*') source += segment ? `[^${segment}]*` : '(?s:.*)';
    else source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  const compiled = linearPattern(`^${source}$`, { ignoreCase: true, scope: 'whole', what: 'policy glob' });
  if (compiledGlobs.size >= 1_000) compiledGlobs.clear();
  compiledGlobs.set(key, compiled);
  return compiled;
}

export type UrlVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * Whether the browser may send a request to this URL. Every request must go to an allowed
 * origin; a navigation (a page or frame load, or a redirect of one) must also match the paths.
 */
export function checkUrl(policy: UiPolicy, rawUrl: string, navigation: boolean): UrlVerdict {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { allowed: false, reason: `'${rawUrl}' is not a URL` };
  }
  if (url.protocol === 'about:' || url.protocol === 'data:' || url.protocol === 'blob:') {
    return navigation && url.protocol !== 'about:'
      ? { allowed: false, reason: `${url.protocol} navigations are not allowed` }
      : { allowed: true };
  }
  if (!policy.origins.some((pattern) => globPattern(pattern, ':/').test(url.origin))) {
    return { allowed: false, reason: `origin ${url.origin} is not in the policy's origins` };
  }
  if (!navigation) return { allowed: true };
  if (policy.blockedPaths.some((pattern) => globPattern(pattern, '/').test(url.pathname))) {
    return { allowed: false, reason: `path ${url.pathname} is blocked by the policy` };
  }
  if (!policy.paths.some((pattern) => globPattern(pattern, '/').test(url.pathname))) {
    return { allowed: false, reason: `path ${url.pathname} is not in the policy's paths` };
  }
  return { allowed: true };
}

/**
 * Whether a browser would send a cookie of this domain to one of the policy's origins,
 * whatever the scheme and port: what a session may carry over from a person's browser. A
 * domain with a leading dot is sent to its subdomains too ('.intranet.example' to
 * 'wiki.intranet.example'); one without it to that host alone.
 */
export function hostAllowed(policy: UiPolicy, domain: string): boolean {
  const forSubdomains = domain.startsWith('.');
  const bare = domain.replace(/^\./, '').toLowerCase();
  return policy.origins.some((pattern) => {
    const hostPattern = /^[^:]+:\/\/(\[[^\]]*\]|[^/:]+)/.exec(pattern)?.[1]?.toLowerCase();
    if (hostPattern === undefined) return false;
    if (globPattern(hostPattern, ':/').test(bare)) return true;
    return forSubdomains && hostPattern.endsWith(`.${bare}`);
  });
}

function words(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
}

/** The blocked name an element's accessible name contains, as whole words, if any. */
export function blockedName(policy: UiPolicy, name: string): string | undefined {
  const haystack = words(name);
  return policy.blockedNames.find((blocked) => {
    const needle = words(blocked);
    return needle.trim().length > 0 && haystack.includes(needle);
  });
}

/** Whether the allow-list (when there is one) admits a click on this name. */
export function clickAllowed(policy: UiPolicy, name: string): boolean {
  if (!policy.clickNames) return true;
  const trimmed = name.trim();
  return policy.clickNames.some((pattern) => globPattern(pattern, '').test(trimmed));
}
