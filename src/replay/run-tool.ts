import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Capability } from '../capability/capability.js';
import type { ToolContext } from '../contract/context.js';
import type { ToolResult } from '../contract/define-tool.js';
import { LiftError } from '../contract/errors.js';
import { PAGE_POOL_SERVICE, type PagePool, startPagePool } from '../rungs/ui/page-pool.js';
import { secretsOf } from '../rungs/ui/sign-in.js';
import { type ReplayOptions, type ReplayResult, replayCapability } from './engine.js';
import { registeredSignIn } from './sign-ins.js';
import type { CapabilityToolDeps, ReplayOverrides, ReplayPlan } from './tool.js';

/** What runs: the registration as it is now (it may have been switched off or re-pointed). */
async function currentPlan(plan: ReplayPlan, deps: CapabilityToolDeps): Promise<ReplayPlan> {
  if (!plan.registered) return plan;
  const current = await deps.registrations.get(plan.name);
  if (!current?.enabled) {
    throw new LiftError(
      'CAPABILITY_DISABLED',
      `${plan.name} is switched off: ${current?.disabledReason ?? 'it was disabled'}.`,
      { outcome: 'not_started' },
    );
  }
  return {
    ...plan,
    revision: current.revision,
    effectClass: current.effectClass,
    signIn: registeredSignIn(current),
  };
}

/** The sign-in a replay may do itself: the recipe, when every secret it reads is stored. */
function signInOptions(
  signIn: ReplayPlan['signIn'],
  ctx: ToolContext,
  save: () => Promise<void>,
): Partial<ReplayOptions> {
  if (!signIn || !secretsOf(signIn).every((name) => ctx.hasSecret(name))) return {};
  return {
    signIn,
    secret: (name: string) => ctx.secret(name),
    saveProfile: save,
  };
}

const ANSWERS: Record<Exclude<ReplayResult['outcome'], 'found'>, string> = {
  not_found: 'not found',
  already_exists: 'that it already exists',
  rejected: 'with a refusal: nothing was written',
};

function resultOf(
  capability: Capability,
  plan: ReplayPlan,
  result: ReplayResult,
  verifiedBy: string,
): ToolResult<Record<string, unknown>> {
  return {
    fields: {
      outcome: result.outcome,
      ...result.outputs,
      ...(result.message !== undefined ? { message: result.message } : {}),
    },
    summary:
      result.outcome === 'found'
        ? `${capability.name}: ${capability.outputs.map((spec) => spec.name).join(', ')} read in ${result.durationMs} ms, checkpoint passed`
        : `${capability.name}: the application answered ${ANSWERS[result.outcome]}`,
    // Only a found outcome ran every step: not_found and already_exists stopped before any write.
    effect: plan.effectClass === 'read' || result.outcome !== 'found' ? 'none' : 'changed',
    verifiedBy,
    checks: result.checkpoint
      ? [
          {
            name: 'checkpoint',
            passed: result.checkpoint.passed,
            detail: `page shows the requested ${capability.checkpoint.equals.input}`,
          },
        ]
      : [],
  };
}

/**
 * The replay's handoff: the page goes to a person with the tool and run named, and the call's
 * deadline waits while they act; a cancelled call takes the page back at once.
 */
function handOver(
  handoff: NonNullable<CapabilityToolDeps['handoff']>,
  page: Page,
  plan: ReplayPlan,
  ctx: ToolContext,
): NonNullable<ReplayOptions['handoff']> {
  return async ({ reason, deadlineMs }) => {
    await ctx.awaitPerson(
      handoff({ page, reason, deadlineMs, tool: plan.name, runId: ctx.runId, signal: ctx.signal }),
    );
  };
}

/**
 * One call of a capability tool, after invoke's validation, ledger, gate and deadline: the
 * stored revision re-hashed, a warm page of the shared pool, the model-free replay, and the
 * two-failure switch of a registered capability.
 */
export async function runReplayTool(
  planned: ReplayPlan,
  deps: CapabilityToolDeps,
  raw: Record<string, unknown>,
  ctx: ToolContext,
  options: { verifiedBy: string; overrides: ReplayOverrides },
): Promise<ToolResult<Record<string, unknown>>> {
  const plan = await currentPlan(planned, deps);
  const { overrides } = options;
  // Pin: what runs is what the plan names, re-hashed from disk now.
  const capability = await deps.capabilities.load(plan.revision);
  const { request_id: _requestId, ...inputs } = raw;
  const pool = await ctx.service<PagePool>(PAGE_POOL_SERVICE, () => startPagePool(deps.home));
  const lease = await pool.page(capability.preconditions.origin);
  try {
    const result = await replayCapability(capability, inputs, {
      page: lease.page,
      revision: plan.revision,
      effectClass: plan.effectClass,
      evidenceDir: join(ctx.outputDir, 'evidence'),
      emit: (event) => ctx.emit(event),
      markStarted: () => ctx.markStarted(),
      isSecret: (text) => ctx.holdsSecret(text),
      ...(overrides.layoutTolerant ? { layoutTolerant: true } : {}),
      ...(deps.handoff ? { handoff: handOver(deps.handoff, lease.page, plan, ctx) } : {}),
      ...signInOptions(overrides.signIn ?? plan.signIn, ctx, () => lease.save()),
    });
    if (plan.registered) await deps.registrations.recordSurfaceOk(plan.name);
    overrides.onResult?.(result);
    return resultOf(capability, plan, result, options.verifiedBy);
  } catch (error) {
    // Only a structural mismatch counts: a missing record, a slow page or a refusal never does.
    if (plan.registered && error instanceof LiftError && isStructural(error)) {
      const disabled = await deps.registrations.recordSurfaceChanged(plan.name, error.message);
      if (disabled) ctx.emit({ type: 'capability-disabled', name: plan.name });
    }
    throw error;
  } finally {
    await lease.release();
  }
}

/** A SURFACE_CHANGED whose page no input could explain (replay/evidence.ts says which). */
function isStructural(error: LiftError): boolean {
  return error.code === 'SURFACE_CHANGED' && error.details?.structural !== false;
}
