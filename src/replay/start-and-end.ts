import type { Page } from 'playwright-core';
import { bindPlaceholders, type Capability, type ValueCheck } from '../capability/capability.js';
import { fingerprintOf, pageFingerprint, settledFingerprint } from '../capability/fingerprint.js';
import { LiftError } from '../contract/errors.js';
import { describeTarget, probeTarget, waitVisible } from './targets.js';

/**
 * The start page is the screen the capability was made on: its skeleton (read with the
 * classification, or read now) hashes to the capability's fingerprint. Answers the
 * SURFACE_CHANGED to throw before any step runs when it does not.
 */
export async function fingerprintMismatch(
  page: Page,
  capability: Capability,
  skeleton: string[] | undefined,
  outcome: 'unknown' | 'not_started',
): Promise<LiftError | undefined> {
  const { origin, path, fingerprint } = capability.preconditions;
  let actual = skeleton ? { fingerprint: fingerprintOf(skeleton), skeleton } : await pageFingerprint(page);
  if (actual.fingerprint === fingerprint) return undefined;
  // Read at the load event, a page its scripts are still building differs: read it built.
  actual = await settledFingerprint(page, undefined, fingerprint);
  if (actual.fingerprint === fingerprint) return undefined;
  return new LiftError(
    'SURFACE_CHANGED',
    `The start page ${new URL(path, origin).href} does not match the capability's fingerprint.`,
    {
      hint: 'The screen changed since discovery. Rediscover the capability (lift discover), or replay with --layout-tolerant if only the arrangement changed.',
      outcome,
      details: { expected: fingerprint, actual: actual.fingerprint, skeleton: actual.skeleton.slice(0, 40) },
    },
  );
}

/** One comparison: the page shows the bound input where discovery saw it. */
async function compareOne(
  page: Page,
  check: ValueCheck,
  inputs: Record<string, unknown>,
  waitMs: number,
): Promise<{ target: string; expected: string; actual: string; passed: boolean }> {
  const target = bindPlaceholders(check.target, inputs);
  // A page may show its result a moment after the last step (a message preview loading into
  // its iframe): a target not shown yet is waited for, as a read waits for its own, then read
  // once. One shown already is read from the first look (resolving a cell costs round trips).
  let probe = await probeTarget(page, target, { text: true, visible: true });
  if (probe.count !== 1 || !probe.visible) {
    await waitVisible(page, target, waitMs);
    probe = await probeTarget(page, target, { text: true });
  }
  const expected = String(inputs[check.equals.input]);
  const { count, text } = probe;
  const actual = count === 1 ? (text ?? '').trim() : '';
  const passed = check.match === 'exact' ? actual === expected : actual.includes(expected);
  return { target: describeTarget(target), expected, actual, passed };
}

/**
 * The final checkpoint: the key and every value the capability typed into the page, read
 * from the resulting page; the answer is the first comparison that fails, else the key's.
 */
export async function compareCheckpoint(
  page: Page,
  capability: Capability,
  inputs: Record<string, unknown>,
  waitMs: number,
): Promise<{ target: string; expected: string; actual: string; passed: boolean }> {
  const { values = [], ...key } = capability.checkpoint;
  const results = await Promise.all([key, ...values].map((check) => compareOne(page, check, inputs, waitMs)));
  return results.find((result) => !result.passed) ?? results[0]!;
}
