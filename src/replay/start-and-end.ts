import type { Page } from 'playwright-core';
import { bindPlaceholders, type Capability, type ValueCheck } from '../capability/capability.js';
import { fingerprintOf, settledFingerprint } from '../capability/fingerprint.js';
import { comparesEqual, describeNormalise } from '../capability/normalise.js';
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
  /** How many elements the target matched on the look that answered: 1 unless it failed. */
  matches: number;
  /** How the comparison was made, when not exactly (normalise.ts). */
  normalised?: string;
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

/** The outputs taken from the resulting page that the checkpoint compares with: read before it. */
export function outputsCheckpointReads(capability: Capability): string[] {
  const fromPage = new Set(capability.outputs.filter((output) => output.from).map((output) => output.name));
  return (capability.checkpoint.values ?? []).flatMap((check) =>
    'output' in check.equals && fromPage.has(check.equals.output) ? [check.equals.output] : [],
  );
}

function compared(
  check: ValueCheck,
  expected: string,
  target: string,
  look: { count: number; text?: string; option?: string },
): Omit<Comparison, 'from'> {
  const actual = look.count === 1 ? (look.text ?? '').trim() : '';
  const equal = (shown: string) => comparesEqual(shown, expected, check.match, check.normalise);
  // A select chosen by its option's value shows the label: either one is what was chosen.
  const passed =
    look.count === 1 && (equal(look.text ?? '') || (look.option !== undefined && equal(look.option)));
  return {
    target,
    expected,
    actual,
    passed,
    matches: look.count,
    ...(check.normalise ? { normalised: describeNormalise(check.normalise) } : {}),
  };
}

/** The value a comparison expects: a bound input, or an output the replay has read by now. */
function expectedOf(check: ValueCheck, inputs: Record<string, unknown>, outputs: Record<string, unknown>) {
  return 'input' in check.equals ? String(inputs[check.equals.input]) : String(outputs[check.equals.output]);
}

/** One comparison: the page shows the bound input where discovery saw it. */
async function compareOne(
  page: Page,
  check: ValueCheck,
  inputs: Record<string, unknown>,
  outputs: Record<string, unknown>,
  waitMs: number,
  known: KnownCell | undefined,
  early: EarlyLook | undefined,
): Promise<Comparison> {
  const target = bindPlaceholders(check.target, inputs);
  const described = describeTarget(target);
  const expected = expectedOf(check, inputs, outputs);
  // A look taken before this one answers only a pass: anything else is looked at afresh, so a
  // stale look never fails a replay.
  const passOf = (look: (Probe | KeyCellLook) | undefined, count: number, from: 'read' | 'page') => {
    if (!look?.visible) return undefined;
    const comparison = compared(check, expected, described, { ...look, count });
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
  return { ...compared(check, expected, described, probe), from: 'page' };
}

/**
 * The final checkpoint: the key and every value the capability typed into the page, read
 * from the resulting page; the answer is the first comparison that fails, else the key's.
 * `outputs` holds what the replay has read so far, for comparisons with an output.
 */
export async function compareCheckpoint(
  page: Page,
  capability: Capability,
  inputs: Record<string, unknown>,
  waitMs: number,
  known?: KnownCell,
  early?: EarlyLook,
  outputs: Record<string, unknown> = {},
): Promise<Comparison> {
  const { values = [], ...key } = capability.checkpoint;
  const results = await Promise.all(
    [key, ...values].map((check) => compareOne(page, check, inputs, outputs, waitMs, known, early)),
  );
  return results.find((result) => !result.passed) ?? results[0]!;
}

/**
 * Why a failed comparison failed, as the error a replay answers: AMBIGUOUS_TARGET when its
 * target matched several elements (which one shows the record is not known, and none is read),
 * CHECK_FAILED when it matched none, or when the one it matched shows another value.
 */
export function checkpointFailure(comparison: Comparison): LiftError {
  const hint = 'The final checkpoint compares the page with the bound inputs; no output was returned.';
  if (comparison.matches > 1)
    return new LiftError(
      'AMBIGUOUS_TARGET',
      `The checkpoint's ${comparison.target} matches ${comparison.matches} elements on the resulting page: which one shows the record is not known.`,
      {
        hint: `${hint} The write may have landed: look the record up before writing again.`,
        outcome: 'unknown',
      },
    );
  if (comparison.matches === 0)
    return new LiftError(
      'CHECK_FAILED',
      `The resulting page shows no ${comparison.target}, where the requested '${comparison.expected}' was expected.`,
      // A target gone from the page is told apart from one that shows another value: the
      // rehearsal of a write that never leaves its answer page keeps the first, never the second.
      { hint, outcome: 'unknown', details: { checkpointTarget: 'absent' } },
    );
  const how = comparison.normalised ? ` (compared ${comparison.normalised})` : '';
  return new LiftError(
    'CHECK_FAILED',
    `The page shows '${comparison.actual}', not the requested '${comparison.expected}'${how}.`,
    { hint, outcome: 'unknown' },
  );
}
