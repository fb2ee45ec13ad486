import type { Page } from 'playwright-core';
import { bindPlaceholders, type Capability, type ValueCheck } from '../capability/capability.js';
import { fingerprintOf, settledFingerprint } from '../capability/fingerprint.js';
import { LiftError } from '../contract/errors.js';
import { UI_DEFAULTS } from '../rungs/ui/defaults.js';
import type { KeyCellLook, Target } from '../rungs/ui/locator.js';
import { describeTarget, type Probe, probeTarget, waitVisible } from './targets.js';

/**
 * The start page is the screen the capability was made on: its skeleton (read with the
 * classification, or read now) hashes to the capability's fingerprint. Answers the error to
 * throw before any step runs when it does not: SURFACE_CHANGED only for a page read in full
 * and at rest; a page still building, or too busy to answer, when `boundMs` ran out is a
 * TIMEOUT, which says nothing about the screen and never switches the capability off (two
 * starved reads in a row on a loaded machine once did, for every worker). `boundMs` is the
 * navigation bound: as long as a page may take to arrive, it may take to be seen at rest.
 */
export async function fingerprintMismatch(
  page: Page,
  capability: Capability,
  skeleton: string[] | undefined,
  outcome: 'unknown' | 'not_started',
  boundMs = UI_DEFAULTS.navigationTimeoutMs,
): Promise<LiftError | undefined> {
  const { origin, path, fingerprint, loadFingerprint } = capability.preconditions;
  const href = new URL(path, origin).href;
  // The first read, at the load event, may show the page as discovery saw it then.
  const seen = skeleton && fingerprintOf(skeleton);
  if (seen && (seen === fingerprint || seen === loadFingerprint)) return undefined;
  // Read at the load event, a page its scripts are still building differs: read it built.
  const actual = await settledFingerprint(page, boundMs, fingerprint);
  if (actual.fingerprint === fingerprint) return undefined;
  if (!actual.settled) {
    return new LiftError(
      'TIMEOUT',
      `The start page ${href} was still changing, or too busy to be read in full, after ${boundMs} ms: whether it is the screen the capability was made on is not known.`,
      {
        hint: 'The application or this machine is slow right now. Call again in a moment.',
        outcome,
      },
    );
  }
  return new LiftError(
    'SURFACE_CHANGED',
    `The start page ${href} does not match the capability's fingerprint.`,
    {
      hint: 'The screen changed since discovery. Rediscover the capability (lift discover), or replay with --layout-tolerant if only the arrangement changed.',
      outcome,
      details: { expected: fingerprint, actual: actual.fingerprint, skeleton: actual.skeleton.slice(0, 40) },
    },
  );
}

/** One comparison's answer, and whether a read's look gave it or a look of its own. */
export interface Comparison {
  target: string;
  expected: string;
  actual: string;
  passed: boolean;
  from: 'read' | 'page';
}

/** A cell the replay already read, as it saw it then; undefined when it has not. */
export type KnownCell = (target: Target) => KeyCellLook | undefined;

/** A first look at a target taken earlier on this same page (LookAhead), if any. */
export type EarlyLook = (target: Target) => Promise<Probe | undefined>;

/** What the checkpoint asks of each of its targets. */
export const CHECKPOINT_LOOK = { text: true, visible: true } as const;

/** The targets the checkpoint reads, bound to the inputs: the key's, then each written value's. */
export function checkpointTargets(capability: Capability, inputs: Record<string, unknown>): Target[] {
  const { values = [], ...key } = capability.checkpoint;
  return [key, ...values].map((check) => bindPlaceholders(check.target, inputs));
}

function compared(
  check: ValueCheck,
  expected: string,
  target: string,
  count: number,
  text: string | undefined,
) {
  const actual = count === 1 ? (text ?? '').trim() : '';
  const passed = check.match === 'exact' ? actual === expected : actual.includes(expected);
  return { target, expected, actual, passed };
}

/** One comparison: the page shows the bound input where discovery saw it. */
async function compareOne(
  page: Page,
  check: ValueCheck,
  inputs: Record<string, unknown>,
  waitMs: number,
  known: KnownCell | undefined,
  early: EarlyLook | undefined,
): Promise<Comparison> {
  const target = bindPlaceholders(check.target, inputs);
  const described = describeTarget(target);
  const expected = String(inputs[check.equals.input]);
  // A look taken before this one answers only a pass: anything else is looked at afresh, so a
  // stale look never fails a replay.
  const passOf = (
    look: { visible: boolean; text?: string } | undefined,
    count: number,
    from: 'read' | 'page',
  ) => {
    if (!look?.visible) return undefined;
    const comparison = compared(check, expected, described, count, look.text);
    return comparison.passed ? { ...comparison, from } : undefined;
  };
  // The key cell of the row a read just found is the one this would look up.
  const fromRead = passOf(known?.(target), 1, 'read');
  if (fromRead) return fromRead;
  // A look sent with the reads (LookAhead) was taken a moment earlier, while the page may still
  // have been drawing what it shows.
  const ahead = await early?.(target);
  const fromAhead = passOf(ahead, ahead?.count ?? 0, 'page');
  if (fromAhead) return fromAhead;
  // A page may show its result a moment after the last step (a message preview loading into
  // its iframe): a target not shown yet is waited for, as a read waits for its own, then read
  // once. One shown already is read from the first look (resolving a cell costs round trips).
  let probe = await probeTarget(page, target, CHECKPOINT_LOOK);
  if (probe.count !== 1 || !probe.visible) {
    await waitVisible(page, target, waitMs);
    probe = await probeTarget(page, target, { text: true });
  }
  return { ...compared(check, expected, described, probe.count, probe.text), from: 'page' };
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
  known?: KnownCell,
  early?: EarlyLook,
): Promise<Comparison> {
  const { values = [], ...key } = capability.checkpoint;
  const results = await Promise.all(
    [key, ...values].map((check) => compareOne(page, check, inputs, waitMs, known, early)),
  );
  return results.find((result) => !result.passed) ?? results[0]!;
}
