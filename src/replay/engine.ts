import { type Capability, revisionOf } from '../capability/capability.js';
import { LiftError } from '../contract/errors.js';
import { PageHarness } from '../rungs/ui/harness.js';
import type { ReplayOptions, ReplayResult } from './options.js';
import { replayPolicy } from './policy.js';
import { Replay } from './replay.js';
import { validateInputs } from './values.js';

export type { HandoffRequest, ReplayOptions, ReplayResult } from './options.js';

/** The pinned revision is what the capability hashes to, or nothing touches the page. */
function checkPin(capability: Capability, pinned: string | undefined): string {
  const revision = revisionOf(capability);
  if (pinned !== undefined && pinned !== revision) {
    throw new LiftError(
      'REVISION_MISMATCH',
      `The capability hashes to ${revision.slice(0, 12)}, not the pinned ${pinned.slice(0, 12)}.`,
      { outcome: 'not_started', details: { expected: pinned, actual: revision } },
    );
  }
  return revision;
}

/** The page under the one harness: the replay's policy, its bound inputs masked, its sign-in. */
function harnessFor(capability: Capability, inputs: Record<string, unknown>, options: ReplayOptions) {
  return PageHarness.open(options.page, {
    policy: options.policy ?? replayPolicy(capability),
    inputs: Object.fromEntries(Object.entries(inputs).map(([name, value]) => [name, String(value)])),
    ...(options.emit ? { emit: options.emit } : {}),
    ...(options.signIn ? { signIn: options.signIn } : {}),
    ...(options.secret ? { secret: options.secret } : {}),
    ...(options.isSecret ? { isSecret: options.isSecret } : {}),
    ...(options.saveProfile ? { saveProfile: options.saveProfile } : {}),
  });
}

/**
 * Replays a capability on a live page with no model anywhere on the path: pins the
 * revision, checks the start page, resolves each target fresh, checks each step's
 * postcondition, classifies the page between steps, and compares the page with the
 * bound inputs before any output is returned.
 */
export async function replayCapability(
  capability: Capability,
  rawInputs: unknown,
  options: ReplayOptions,
): Promise<ReplayResult> {
  const t0 = performance.now();
  const revision = checkPin(capability, options.revision);
  const inputs = validateInputs(capability, rawInputs);
  const harness = await harnessFor(capability, inputs, options);
  // A recipe that says where its form is signs in there first (the start page never asks).
  await harness.signInAtOpen(capability.preconditions.origin);
  const replay = new Replay(capability, inputs, options, harness);
  replay.emit('replay-start', { capability: capability.name, revision, steps: capability.steps.length });
  try {
    const outcome = await replay.run();
    replay.assertNothingBlocked();
    const checkpoint = outcome === 'found' ? await replay.checkpoint() : undefined;
    if (checkpoint && !checkpoint.passed) {
      throw new LiftError(
        'CHECK_FAILED',
        `The page shows '${checkpoint.actual}', not the requested '${checkpoint.expected}'.`,
        {
          hint: 'The final checkpoint compares the page with the bound inputs; no output was returned.',
          outcome: 'unknown',
        },
      );
    }
    if (outcome === 'found') await replay.readPageOutputs();
    const durationMs = Math.round((performance.now() - t0) * 10) / 10;
    replay.emit('replay-end', { outcome, ms: durationMs });
    return {
      outcome,
      outputs: outcome === 'found' ? replay.outputs : {},
      revision,
      stepsRun: replay.stepsRun,
      checkpoint,
      reloads: replay.reloads,
      handoffs: replay.handoffs,
      durationMs,
      ...(outcome === 'rejected' && replay.rejection ? { message: replay.rejection } : {}),
    };
  } catch (error) {
    replay.emit('replay-end', {
      outcome: 'error',
      code: error instanceof LiftError ? error.code : 'INTERNAL_ERROR',
    });
    throw error;
  } finally {
    await replay.detach();
  }
}
