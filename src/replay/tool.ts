import { z } from 'zod';
import type { Capability } from '../capability/capability.js';
import { unreviewedEffectClass } from '../capability/effects.js';
import type { CapabilityStore } from '../capability/store.js';
import { type AnyTool, defineTool } from '../contract/define-tool.js';
import type { EffectClass } from '../contract/effects.js';
import { RequestIdSchema } from '../contract/request-id.js';
import type { HandoffEnd, PageHandoff } from '../rungs/ui/handoff/desk.js';
import { describeLocator } from '../rungs/ui/locator.js';
import { type SignInRecipe, secretsOf } from '../rungs/ui/sign-in.js';
import type { RegistrationRecords } from '../store/records.js';
import type { ReplayResult } from './engine.js';
import type { Registration } from './registrations.js';
import { type ReplaySignIns, registeredSignIn } from './sign-ins.js';
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
  registrations: RegistrationRecords;
  /** Sign-ins given for unregistered capabilities, so a held call of one runs with it once approved. */
  signIns?: ReplaySignIns;
  home: string;
  /**
   * Attended runs hand an expired session to a person (the console shows the page); without
   * it the replay answers AUTH_REQUIRED.
   */
  handoff?: (request: PageHandoff) => Promise<HandoffEnd>;
}

/** How one run differs from the registration: `lift replay`'s flags, and who hears the result. */
export interface ReplayOverrides {
  layoutTolerant?: boolean;
  /** Sign in by this recipe (`lift replay --user/--secret` or `--sign-in FILE`), not the registration's. */
  signIn?: SignInRecipe | undefined;
  /** Hears the replay's full result (steps, reloads, durations) when one ran. */
  onResult?: (result: ReplayResult) => void;
}

/** What a capability tool replays: a registered revision, or a stored one nobody registered. */
export interface ReplayPlan {
  name: string;
  revision: string;
  effectClass: EffectClass;
  signIn: SignInRecipe | undefined;
  /** Registered: the registration is read again on every call (switched off, sign-in). */
  registered: boolean;
}

/** Tools of unregistered capabilities are named by revision: replay_<first 12 hex digits>. */
export const UNREGISTERED_PREFIX = 'replay_';

export function unregisteredToolName(revision: string): string {
  return `${UNREGISTERED_PREFIX}${revision.slice(0, 12)}`;
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
  overrides: ReplayOverrides = {},
): AnyTool {
  const plan: ReplayPlan = {
    name: registration.name,
    revision: registration.revision,
    effectClass: registration.effectClass,
    signIn: registeredSignIn(registration),
    registered: true,
  };
  return declare(capability, plan, deps, overrides);
}

/**
 * A stored capability nobody registered (a file given to `lift replay`) as a tool under the
 * same contract: irreversible (a signature) unless none of its steps can change state, so
 * running it goes through the gate and the ledger exactly as a registered one does.
 */
export function unregisteredCapabilityTool(
  capability: Capability,
  revision: string,
  deps: CapabilityToolDeps,
  overrides: ReplayOverrides = {},
): AnyTool {
  const plan: ReplayPlan = {
    name: unregisteredToolName(revision),
    revision,
    effectClass: unreviewedEffectClass(capability),
    signIn: deps.signIns?.get(revision),
    registered: false,
  };
  return declare(capability, plan, deps, overrides);
}

function declare(
  capability: Capability,
  plan: ReplayPlan,
  deps: CapabilityToolDeps,
  overrides: ReplayOverrides,
): AnyTool {
  const writes = plan.effectClass !== 'read';
  const signInSecret = plan.signIn ? secretsOf(plan.signIn)[0] : undefined;
  const baseInput = inputSchemaOf(capability);
  const input = writes ? baseInput.extend({ request_id: RequestIdSchema.optional() }) : baseInput;
  // Typed as a record: the fields are the capability's own, known only at run time.
  const output: z.ZodType<Record<string, unknown>> = z.strictObject({
    outcome: z.enum(capability.outcomes),
    ...(capability.outcomes.includes('rejected')
      ? { message: z.string().optional().describe("For a rejected write: the application's own message") }
      : {}),
    ...Object.fromEntries(capability.outputs.map((spec) => [spec.name, OUTPUT_TYPES[spec.type].optional()])),
  });
  const checkpoint = `final checkpoint: ${describeLocator(capability.checkpoint.target.locator)} equals input ${capability.checkpoint.equals.input}`;
  const unreviewed = plan.registered
    ? ''
    : ' Not registered: treated as its steps allow (lift capabilities add to review it).';
  return defineTool({
    name: plan.name,
    title: capability.intent,
    description: `${capability.intent}. Replays capability ${plan.revision.slice(0, 12)} (${capability.steps.length} steps) without a model; answers outcome ${capability.outcomes.join(' or ')}.${unreviewed}`,
    group: 'capabilities',
    rung: 'script',
    input,
    output,
    verifiedBy: checkpoint,
    errors: REPLAY_ERRORS,
    effect: {
      class: plan.effectClass,
      ...(writes
        ? { repeat: 'A second call with the same request_id returns the first result without replaying.' }
        : {}),
    },
    timeout: { deadlineMs: 60_000 },
    ...(signInSecret
      ? {
          session: {
            secret: signInSecret,
            onExpiry: 'sign in again from the secret store; AUTH_REQUIRED when it is missing',
          },
        }
      : {}),
    preview: (raw: Record<string, unknown>) =>
      `${plan.name}: ${capability.intent} (${capability.steps.length} steps on ${capability.preconditions.origin}) with ${JSON.stringify(raw)}`,
    example: exampleInput(capability),
    // The replay engine and the browser come with the first run, not with the declaration.
    run: async (raw, ctx) =>
      (await import('./run-tool.js')).runReplayTool(plan, deps, raw as Record<string, unknown>, ctx, {
        verifiedBy: checkpoint,
        overrides,
      }),
  });
}

const REPLAY_ERRORS = {
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
    retry: 'yes' as const,
    hint: 'The application kept answering with a server error after one reload. Try again later.',
  },
  UNEXPECTED_STATE: {
    hint: 'An undeclared dialog or state stopped the replay. Look at the page before calling again.',
  },
  NO_CHANGE: {
    hint: 'An element the capability needs is disabled or covered. A person should look at the page.',
  },
  CHECK_FAILED: { hint: 'The page did not show the requested record; no output was returned.' },
  POLICY_BLOCKED: {
    hint: 'The application sent the page to an origin or path the replay may not reach; nothing was sent there.',
  },
};

/** Every registered capability as a tool, each loaded and re-hashed from the store. */
export async function registeredCapabilityTools(deps: CapabilityToolDeps): Promise<AnyTool[]> {
  const tools: AnyTool[] = [];
  for (const registration of await deps.registrations.list()) {
    try {
      tools.push(capabilityTool(await deps.capabilities.load(registration.revision), registration, deps));
    } catch {
      // A tampered or missing capability is not offered; calling it by name says UNKNOWN_TOOL.
    }
  }
  return tools;
}
