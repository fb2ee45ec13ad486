import type { Target } from '../rungs/ui/locator.js';
import { resolveTarget } from '../rungs/ui/locator.js';
import { judgeAbsence } from './absence.js';
import type { KeyCellMemo } from './key-cell-memo.js';
import type { Want } from './look-ahead.js';
import type { Settled } from './options.js';
import type { Pager } from './paging.js';
import { CHUNK_MS } from './postconditions.js';
import type { StageHost } from './stage-host.js';
import { describeTarget, type Probe, probeTarget, waitVisible } from './targets.js';

/**
 * How long a target may be missing from a page at rest before its absence is judged: a
 * record missing from a page built as discovery saw it answers not_found then, not at the
 * step's deadline.
 */
const ABSENCE_LOOK_MS = 1_000;

/** What looking for a step's target uses of the replay, beyond what every wait does. */
export interface TargetSearchHost extends StageHost {
  readonly keyCells: KeyCellMemo;
  readonly pager: Pager;
  /** The target with the inputs bound into its placeholders. */
  bind(target: Target): Target;
  /** The look sent ahead for this target (LookAhead), when it found exactly one on the page as it is. */
  lookedAhead(target: Target, want: Want): Promise<Probe | undefined>;
}

/**
 * Finds a step's target fresh: exactly one match, or SURFACE_CHANGED; while it is absent the
 * page is classified, which may answer not_found or restart instead (StepRunner.find).
 */
export async function findTarget(
  host: TargetSearchHost,
  raw: Target,
  index: number,
  want: { visible?: boolean; text?: boolean } = {},
): Promise<Probe | Settled> {
  const target = host.bind(raw);
  const early = await host.lookedAhead(target, want);
  if (early) {
    if (early.keyCell) host.keyCells.remember(target, early.keyCell);
    return early;
  }
  if (host.seen.justSeen(target) && !want.text) {
    // The last postcondition saw exactly one, visible, and nothing has loaded since. Actions
    // are strict too, so a second match appearing in between still stops the step.
    return { locator: await resolveTarget(host.page, target), count: 1, visible: true };
  }
  const wait = host.startWait();
  let judged = false;
  for (;;) {
    host.assertNothingBlocked();
    const found = await wait.timed(() => probeTarget(host.page, target, want));
    if (found.count === 1) {
      if (found.keyCell) host.keyCells.remember(target, found.keyCell);
      return found;
    }
    if (found.count > 1) {
      throw await host.failures.ambiguous(
        `Step ${index + 1}: ${describeTarget(target)} matches ${found.count} elements.`,
        target,
      );
    }
    if (await host.signShown('not_found', index)) return 'not_found';
    // A late row gets a moment to come. A list that settles before it answers not_found waits
    // that moment itself, after its requests are answered (Pager), so it looks at once here.
    const settlesAbsence = host.pager.settlesAbsence(target);
    if (!settlesAbsence && (await waitVisible(host.page, target, CHUNK_MS)) !== 'absent') continue;
    const settled = await host.answer(await host.classify());
    if (settled !== 'ok') return settled;
    const paged = await host.pager.turn(target);
    if (paged === 'next') {
      wait.restart();
      continue;
    }
    if (paged === 'last') return host.failures.notFound(`${describeTarget(target)} is on none of the pages`);
    // Not answered yet (the list is not shown): the look paces the loop.
    if (settlesAbsence && (await waitVisible(host.page, target, CHUNK_MS)) !== 'absent') continue;
    const past = wait.pastDeadline();
    // A page at rest for a while that is built as discovery saw it answers at once, not at the deadline.
    if (past || (!judged && wait.atRestFor(ABSENCE_LOOK_MS))) {
      judged = true;
      const absence = await judgeAbsence(host.page, host.capability, index);
      if (absence.kind === 'record')
        return host.failures.notFound(`${describeTarget(target)}: ${absence.detail}`);
      if (past)
        throw await host.failures.ranOut(
          wait,
          `Step ${index + 1}: ${describeTarget(target)} is not on the page.`,
          target,
          absence.structural,
        );
    }
  }
}
