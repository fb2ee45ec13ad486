import { bindPlaceholders, type Postcondition, type Value } from '../capability/capability.js';
import type { QuietSince } from '../rungs/ui/quiet.js';
import { judgeAbsence } from './absence.js';
import { disclosureAfter } from './disclosures.js';
import type { ReplayOptions, Settled } from './options.js';
import { describePostcondition, holds, holdsNow } from './postconditions.js';
import type { StageHost } from './stage-host.js';
import { describeTarget } from './targets.js';

/** What settling a step on its postcondition uses of the replay, beyond what every wait does. */
export interface SettleHost extends StageHost {
  /** The step being settled (0-based). */
  readonly stepIndex: number;
  readonly effectClass: ReplayOptions['effectClass'];
  readonly inputs: Record<string, unknown>;
  /** Bound of a look that does not wait, and of a wait that goes on while the page is busy. */
  readonly navigationTimeoutMs: number;
  /** Documents loaded so far. */
  documentsLoaded(): number;
  /** A value typed into the page: the bound input, or the literal. */
  value(value: Value): string;
  /** The step at this index has nothing to do: the application kept what it shows open. */
  passOver(index: number): void;
  documentsSettled(): Promise<void>;
  quiet(near: undefined): Promise<void>;
  scriptsSettled(): Promise<void>;
  /** Whether a write is being settled whose refusal the capability declares (its page's messages were kept). */
  refusalPossible(): boolean;
  /** Whether the application refused that write: a new error message, its form still there. */
  refused(): Promise<boolean>;
  /** The write is settled: the messages kept before it are no longer needed. */
  writeSettled(): void;
}

/**
 * After a step: the postcondition holds, or the page classification decides (StepRunner.settle).
 * With a watch begun (quietFrom), the first look goes out at once and counts only if the page
 * stayed quiet.
 */
export async function settle(
  host: SettleHost,
  raw: Postcondition | undefined,
  watch?: QuietSince,
): Promise<Settled> {
  // Documents loaded when the page was last seen at rest within the step being settled.
  const rest = { loads: host.documentsLoaded() };
  let settled = await settleOn(host, raw, watch, rest);
  // A write whose next page expects nothing in particular may still have been refused.
  if (settled === 'ok' && host.refusalPossible() && (await host.refused())) settled = 'rejected';
  host.writeSettled();
  // A document that came while the postcondition was awaited (Roundcube goes back to the
  // mail view a moment after a send) shows the next step's target before its scripts are
  // set up, and a click then is ignored: the next step waits for them, as after its own load.
  // Not again when the step's watch, main frame included, saw the page at rest after it came.
  if (settled === 'ok' && host.documentsLoaded() !== rest.loads) await host.scriptsSettled();
  return settled;
}

async function settleOn(
  host: SettleHost,
  raw: Postcondition | undefined,
  watch: QuietSince | undefined,
  rest: { loads: number },
): Promise<Settled> {
  const expect = raw ? bindPlaceholders(raw, host.inputs) : undefined;
  const wait = host.startWait();
  const next = disclosureAfter(host.capability, host.stepIndex, host.effectClass);
  const disclosed = next ? bindPlaceholders(next, host.inputs) : undefined;
  const bound = (value: Value) => host.value(value);
  /** Whether a bound postcondition holds on the page now: one look that does not wait. */
  const holdsAtOnce = (postcondition: Postcondition | undefined) =>
    holdsNow(host.page, postcondition, bound, host.navigationTimeoutMs);
  let lookedAgain = false;
  let refusalLooked = false;
  // The wait's last look does not wait: each of the others gives the page CHUNK_MS, which a
  // starved renderer can miss every time while what the step expects is there.
  let lastLook = false;
  // The first look went out while the page was watched: it counts only if the page stayed quiet.
  let watched = watch?.settled;
  for (;;) {
    host.assertNothingBlocked();
    const look = lastLook ? () => holdsAtOnce(expect) : () => holds(host.page, expect, bound);
    // Both only read the page; the classification decides first when it is not ok.
    let [held, state] = await wait.timed(() => Promise.all([look(), host.classify()]));
    if (watched) {
      const stayedQuiet = await watched;
      watched = undefined;
      if (await watch!.mainAtRest) rest.loads = host.documentsLoaded();
      // The page changed while it was looked at: look again, now that it has settled, with the
      // whole wait still ahead (a page that kept changing used up the watch's own).
      if (!stayedQuiet) {
        wait.restart();
        continue;
      }
    }
    // Looked at only when the control is missing, so a replay that clicks it pays nothing.
    if (held === false && disclosed && state.kind === 'ok' && (await holdsAtOnce(disclosed)) === true) {
      host.passOver(host.stepIndex + 1);
      return 'ok';
    }
    if (held === false && (await host.signShown('not_found', host.stepIndex + 1))) return 'not_found';
    // What the step expected is on the page: a password field or a message there is the page's own.
    const weak = state.kind === 'auth_expired' || state.kind === 'not_found';
    if (weak && held === false && !lookedAgain) {
      // Decide on a settled page: what the step expected may still be on its way.
      lookedAgain = true;
      await host.documentsSettled();
      await host.quiet(undefined);
      continue;
    }
    // A timed look can miss on a busy machine; before a message decides, look without a clock.
    if (weak && held === false) held = await holdsAtOnce(expect);
    const settled = held === true && weak ? 'ok' : await host.answer(state);
    if (settled !== 'ok') return settled;
    const target = expect && 'target' in expect ? expect.target : undefined;
    if (held === 'ambiguous')
      throw await host.failures.ambiguous(
        `${describeTarget(target!)} matches more than one element.`,
        target!,
      );
    if (held) {
      host.seen.held(expect);
      return 'ok';
    }
    if (held === false && !refusalLooked && host.refusalPossible()) {
      // A write the application refused says so beside its form, once the page has settled.
      refusalLooked = true;
      if (await host.refused()) return 'rejected';
    }
    const past = wait.pastDeadline();
    if (past && !lastLook) {
      lastLook = true;
      continue;
    }
    lastLook = false;
    if (past) {
      // What the step expected is the next step's target: judged on the page that step runs on.
      const at = Math.min(host.stepIndex + 1, host.capability.steps.length - 1);
      const absence = held === false ? await judgeAbsence(host.page, host.capability, at) : undefined;
      if (absence?.kind === 'record')
        return host.failures.notFound(`${describeTarget(target!)}: ${absence.detail}`);
      throw await host.failures.ranOut(
        wait,
        `The page did not reach the expected state (${describePostcondition(expect)}).`,
        target,
        absence?.structural,
      );
    }
  }
}
