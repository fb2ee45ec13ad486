import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Capability } from '../capability/capability.js';
import type { CapabilityStore } from '../capability/store.js';
import type { ToolEvent } from '../contract/context.js';
import type { UiPolicy } from '../rungs/ui/policy.js';
import type { Store } from '../store/store.js';
import type { Explorer } from './explorers/explorer.js';
import { DiscoverySession, type DiscoveryTask, type SessionStatus } from './session.js';
import { type DiscoverySignIn, PageDriver } from './ui-driver.js';

export interface DiscoveryOptions {
  store: Store;
  capabilities: CapabilityStore;
  page: Page;
  policy: UiPolicy;
  task: DiscoveryTask;
  explorer: Explorer;
  /** Table columns whose values the explorer never sees. */
  hidden?: string[];
  /** The session's own sign-in (passwordFormSignIn for --user/--secret), typed by Lift. */
  signIn?: DiscoverySignIn;
  /** Keeps the browser profile (its cookies) after a sign-in. */
  saveProfile?: () => Promise<void>;
  attended?: boolean;
  handoff?: (reason: string, deadlineMs: number) => Promise<void>;
  handoffDeadlineMs?: number;
  liftVersion: string;
}

export interface DiscoveryResult {
  runId: string;
  status: SessionStatus;
  capability: Capability | undefined;
  revision: string | undefined;
  explorer: Explorer['kind'];
  model: string | undefined;
  /** Tokens of each observation the explorer received (characters / 4). */
  observationTokens: number[];
  uiActions: number;
  modelCalls: number;
  /** Input + output tokens of the model calls (0 without a model). */
  modelTokens: number;
  durationMs: number;
}

/** Creates the session for a page, ready for an explorer (or the step-by-step command line). */
export async function openDiscovery(
  options: Omit<DiscoveryOptions, 'explorer'> & { explorer: Explorer['kind']; model?: string },
): Promise<{ session: DiscoverySession; runId: string; driver: PageDriver }> {
  const { store, task, policy } = options;
  const runId = store.runs.start('discovery', `discover ${task.name}`);
  const emit = (event: ToolEvent) => store.runs.append(runId, [{ t: new Date().toISOString(), ...event }]);
  const driver = await PageDriver.create({
    page: options.page,
    policy,
    bound: task.bound,
    hiddenColumns: options.hidden ?? [],
    ...(options.signIn ? { signIn: options.signIn } : {}),
    ...(options.saveProfile ? { saveProfile: options.saveProfile } : {}),
    attended: options.attended ?? false,
    isSecret: (text) => store.secrets.foundIn(text),
    outputDir: join(store.home, 'out', 'discovery', runId),
    emit,
  });
  const session = new DiscoverySession({
    task,
    ui: driver,
    budgets: policy.budgets,
    explorer: options.explorer,
    ...(options.model ? { model: options.model } : {}),
    runId,
    liftVersion: options.liftVersion,
    emit,
    save: async (capability) => {
      const saved = await options.capabilities.save(capability);
      return { revision: saved.revision, file: saved.file };
    },
    ...(options.handoff ? { handoff: options.handoff } : {}),
    ...(options.handoffDeadlineMs ? { handoffDeadlineMs: options.handoffDeadlineMs } : {}),
  });
  await session.start();
  return { session, runId, driver };
}

/** Runs one discovery to its end with the given explorer and records its outcome. */
export async function runDiscovery(options: DiscoveryOptions): Promise<DiscoveryResult> {
  const t0 = performance.now();
  const { session, runId, driver } = await openDiscovery({
    ...options,
    explorer: options.explorer.kind,
    ...(options.explorer.model ? { model: options.explorer.model } : {}),
  });
  const { task } = options;
  try {
    await options.explorer.explore(session, {
      task: task.intent,
      inputs: task.inputs.map((input) => input.name),
      outputs: task.outputs.map((output) => ({ name: output.name, type: output.type })),
      startUrl: task.startUrl,
    });
  } catch (error) {
    session.abandon(
      `the explorer failed: ${error instanceof Error ? error.message : String(error)}`,
      'failed',
    );
    options.store.runs.end(runId, false);
    driver.detach();
    throw error;
  }
  const status = session.status();
  options.store.runs.end(runId, status.outcome === 'completed');
  driver.detach();
  return {
    runId,
    status,
    capability: session.capability,
    revision: status.revision,
    explorer: options.explorer.kind,
    model: options.explorer.model,
    observationTokens: status.observations,
    uiActions: session.uiActions,
    modelCalls: options.explorer.usage?.calls ?? 0,
    modelTokens: (options.explorer.usage?.inputTokens ?? 0) + (options.explorer.usage?.outputTokens ?? 0),
    durationMs: Math.round(performance.now() - t0),
  };
}
