import { join } from 'node:path';
import { z } from 'zod';
import type { Capability } from '../capability/capability.js';
import type { CapabilityStore } from '../capability/store.js';
import type { ToolContext } from '../contract/context.js';
import { type AnyTool, defineTool } from '../contract/define-tool.js';
import { LiftError } from '../contract/errors.js';
import { describeLocator } from '../rungs/ui/locator.js';
import type { PagePool } from '../rungs/ui/page-pool.js';
import { PAGE_POOL_SERVICE, startPagePool } from '../rungs/ui/page-pool.js';
import { passwordFormSignIn } from '../rungs/ui/sign-in.js';
import { replayCapability } from './engine.js';
import type { Registration, Registrations } from './registrations.js';
import { inputSchemaOf } from './values.js';

const OUTPUT_TYPES = {
  string: z.string(),
  number: z.number(),
  integer: z.number().int(),
  boolean: z.boolean(),
} as const;

function exampleInput(capability: Capability): Record<string, unknown> {
  return Object.fromEntries(
    capability.inputs.map((input) => [
      input.name,
      input.type === 'string'
        ? (input.description?.match(/such as (\S+)/)?.[1] ?? 'value')
        : input.type === 'boolean'
          ? true
          : 1,
    ]),
  );
}

export interface CapabilityToolDeps {
  capabilities: CapabilityStore;
  registrations: Registrations;
  home: string;
  /** Attended runs hand an expired session to a person; unattended ones return AUTH_REQUIRED. */
  handoff?: (reason: string, deadlineMs: number) => Promise<void>;
}

/**
 * A registered capability as a Lift tool: rung `script`, typed inputs and outputs from the
 * capability, the reviewer's side-effect class, the final checkpoint as `verified_by`.
 * Every call re-hashes the stored capability before it touches the page.
 */
export function capabilityTool(
  capability: Capability,
  registration: Registration,
  deps: CapabilityToolDeps,
): AnyTool {
  const writes = registration.effectClass !== 'read';
  const baseInput = inputSchemaOf(capability);
  const input = writes ? baseInput.extend({ request_id: z.string().min(1).max(100).optional() }) : baseInput;
  const output = z.strictObject({
    outcome: z.enum(capability.outcomes),
    ...Object.fromEntries(capability.outputs.map((spec) => [spec.name, OUTPUT_TYPES[spec.type].optional()])),
  });
  const checkpoint = `final checkpoint: ${describeLocator(capability.checkpoint.target.locator)} equals input ${capability.checkpoint.equals.input}`;
  return defineTool({
    name: capability.name,
    title: capability.intent,
    description: `${capability.intent}. Replays capability ${registration.revision.slice(0, 12)} (${capability.steps.length} steps) without a model; answers outcome ${capability.outcomes.join(' or ')}.`,
    group: 'capabilities',
    rung: 'script',
    input,
    output,
    verifiedBy: checkpoint,
    errors: {
      CAPABILITY_DISABLED: {
        hint: 'This capability failed twice in a row and was switched off. Rediscover it, or re-enable it (lift capabilities enable NAME).',
      },
      REVISION_MISMATCH: {
        hint: 'The stored capability no longer hashes to its registered revision. Rediscover or register it again.',
      },
      NOT_FOUND: { hint: 'The application says the record does not exist.' },
      APP_ERROR: {
        hint: 'The application showed an error page; a masked screenshot is in the error details.',
      },
      UPSTREAM_ERROR: {
        retry: 'yes',
        hint: 'The application kept answering with a server error after one reload. Try again later.',
      },
      UNEXPECTED_STATE: {
        hint: 'An undeclared dialog or state stopped the replay. Look at the page before calling again.',
      },
      NO_CHANGE: {
        hint: 'An element the capability needs is disabled or covered. A person should look at the page.',
      },
      CHECK_FAILED: { hint: 'The page did not show the requested record; no output was returned.' },
    },
    effect: {
      class: registration.effectClass,
      ...(writes
        ? { repeat: 'A second call with the same request_id returns the first result without replaying.' }
        : {}),
    },
    timeout: { deadlineMs: 60_000 },
    ...(registration.signIn
      ? {
          session: {
            secret: registration.signIn.secret,
            onExpiry: 'sign in again from the secret store; AUTH_REQUIRED when it is missing',
          },
        }
      : {}),
    example: exampleInput(capability),
    run: async (raw, ctx) =>
      runCapability(registration, deps, raw as Record<string, unknown>, ctx, checkpoint),
  });
}

async function runCapability(
  registration: Registration,
  deps: CapabilityToolDeps,
  raw: Record<string, unknown>,
  ctx: ToolContext,
  verifiedBy: string,
) {
  const current = deps.registrations.get(registration.name);
  if (!current?.enabled) {
    throw new LiftError(
      'CAPABILITY_DISABLED',
      `${registration.name} is switched off: ${current?.disabledReason ?? 'it was disabled'}.`,
      {
        outcome: 'not_started',
      },
    );
  }
  // Pin: what runs is what the registration names, re-hashed from disk now.
  const capability = deps.capabilities.load(current.revision);
  const { request_id: _requestId, ...inputs } = raw;
  const pool = await ctx.service<PagePool>(PAGE_POOL_SERVICE, () => startPagePool(deps.home));
  const lease = await pool.page(capability.preconditions.origin);
  const signIn = current.signIn;
  try {
    const result = await replayCapability(capability, inputs, {
      page: lease.page,
      revision: current.revision,
      effectClass: current.effectClass,
      evidenceDir: join(ctx.outputDir, 'evidence'),
      emit: (event) => ctx.emit(event),
      markStarted: () => ctx.markStarted(),
      ...(deps.handoff ? { handoff: ({ reason, deadlineMs }) => deps.handoff!(reason, deadlineMs) } : {}),
      ...(signIn && ctx.hasSecret(signIn.secret)
        ? {
            signIn: passwordFormSignIn(signIn.user, { secret: signIn.secret }),
            secret: (name: string) => ctx.secret(name),
            saveProfile: () => lease.save(),
          }
        : {}),
    });
    deps.registrations.recordSurfaceOk(registration.name);
    const fields = { outcome: result.outcome, ...result.outputs };
    return {
      fields,
      summary:
        result.outcome === 'found'
          ? `${capability.name}: ${capability.outputs.map((spec) => spec.name).join(', ')} read in ${result.durationMs} ms, checkpoint passed`
          : `${capability.name}: the application answered not found`,
      effect: current.effectClass === 'read' ? ('none' as const) : ('changed' as const),
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
  } catch (error) {
    if (error instanceof LiftError && error.code === 'SURFACE_CHANGED') {
      const disabled = deps.registrations.recordSurfaceChanged(registration.name, error.message);
      if (disabled) ctx.emit({ type: 'capability-disabled', name: registration.name });
    }
    throw error;
  } finally {
    await lease.release();
  }
}

/** Every registered capability as a tool, each loaded and re-hashed from the store. */
export function registeredCapabilityTools(deps: CapabilityToolDeps): AnyTool[] {
  const tools: AnyTool[] = [];
  for (const registration of deps.registrations.list()) {
    try {
      tools.push(capabilityTool(deps.capabilities.load(registration.revision), registration, deps));
    } catch {
      // A tampered or missing capability is not offered; calling it by name says UNKNOWN_TOOL.
    }
  }
  return tools;
}
