import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { Capability, InputSpec, OutputSpec } from '../../src/capability/capability.js';
import { CapabilityStore } from '../../src/capability/store.js';
import type { EffectClass } from '../../src/contract/effects.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { runDiscovery } from '../../src/discover/run.js';
import { type ReplayResult, replayCapability } from '../../src/replay/engine.js';
import { Registrations } from '../../src/replay/registrations.js';
import { registeredSignIn } from '../../src/replay/sign-ins.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { passwordFormSignIn, type SignInRecipe } from '../../src/rungs/ui/sign-in.js';
import { openStore } from '../../src/store/store.js';
import type { RealApp } from './bed.js';
import { type ExplorerMoves, LiveExplorer } from './explore.js';
import { lift } from './lift-cli.js';
import { replayThroughGate } from './through-gate.js';

/** What a case's check reads of a replay: a direct one's result, or the approved call's answer. */
export type CaseResult = Pick<ReplayResult, 'outcome' | 'outputs'>;

/** One operation of the bed: its task, the explorer that discovers it, and the new inputs it replays on. */
export interface Operation<App extends RealApp<unknown, unknown>> {
  name: string;
  intent: string;
  effect: EffectClass;
  inputs: InputSpec[];
  outputs: OutputSpec[];
  /** Where discovery (and every replay) starts, a path on the app's origin. */
  startPath: string;
  /** The values bound for discovery; the explorer never sees them. */
  bound: Record<string, string>;
  explore: (moves: ExplorerMoves) => Promise<void>;
  /**
   * What the sign-in recipe says beyond the short form (`--user --secret`): where the form
   * lives and how it is reached, or its own fields, button and sign of success.
   */
  signIn?: Partial<SignInRecipe>;
  /**
   * Replayed the way a person's agent calls it: `lift replay NAME` is held at the signature
   * gate, `untouched` proves nothing happened, and `lift approve` runs it (an irreversible
   * write). Without it the registered revision is replayed directly.
   */
  throughGate?: { untouched: (app: App, inputs: Record<string, string>) => Promise<boolean> };
  /** At least three new inputs, each checked against the application's own state after the replay. */
  cases: Array<{
    inputs: Record<string, string>;
    check: (app: App, result: CaseResult) => Promise<boolean>;
  }>;
}

/** What the closing note prints per app and operation. */
export interface OperationRecord {
  app: string;
  operation: string;
  explorerCalls: number;
  rejections: number;
  steps: number;
  correct: number;
  tried: number;
  failures: string[];
}

/**
 * Discovers an operation with its live explorer, registers the capability with `lift
 * capabilities add` (the reviewer's effect class and the sign-in recipe), then replays the
 * registered revision with the registration's sign-in on each case, after a reset that
 * signs every browser out, and checks the application's own state.
 */
export async function discoverRegisterReplay<App extends RealApp<unknown, unknown>>(
  app: App,
  browser: Browser,
  operation: Operation<App>,
): Promise<{ record: OperationRecord; capability: Capability | undefined; log: unknown[] }> {
  const home = mkdtempSync(join(tmpdir(), 'lift-real-ops-'));
  const secretName = `${app.name}_password`;
  const env = { [`LIFT_SECRET_${secretName.toUpperCase()}`]: app.credentials.password };
  const store = openStore(home, env);
  const record: OperationRecord = {
    app: app.name,
    operation: operation.name,
    explorerCalls: 0,
    rejections: 0,
    steps: 0,
    correct: 0,
    tried: 0,
    failures: [],
  };
  const explorer = new LiveExplorer(operation.explore);
  const signIn = { ...passwordFormSignIn(app.credentials.user, { secret: secretName }), ...operation.signIn };
  const secret = (name: string) => store.secrets.get(name);
  try {
    await app.reset();
    const context = await browser.newContext();
    const startUrl = `${app.origin}${operation.startPath}`;
    const result = await runDiscovery({
      store,
      capabilities: new CapabilityStore(store.capabilities),
      page: await context.newPage(),
      policy: parsePolicy({ version: 1, origins: [app.origin] }),
      task: { ...operation, startUrl },
      explorer,
      signIn: { recipe: signIn, secret },
      // As under `lift session`, whose explorer has a person at hand: a high-risk click (a
      // row's Delete) is the explorer's to make, and the registration's effect class gates replay.
      attended: true,
      liftVersion: LIFT_VERSION,
    }).finally(() => context.close());
    record.explorerCalls = explorer.counts.calls;
    record.rejections = explorer.counts.rejections;
    const capability = result.capability;
    if (!capability) {
      record.failures.push(`discovery ${result.status.outcome}: ${result.status.reason ?? ''}`);
      return { record, capability, log: explorer.log };
    }
    record.steps = capability.steps.length;
    const file = join(home, `${operation.name}.json`);
    writeFileSync(file, JSON.stringify(capability, null, 2));
    const recipeFile = join(home, `${operation.name}.sign-in.json`);
    writeFileSync(recipeFile, JSON.stringify(signIn, null, 2));
    const added = await lift(
      ['capabilities', 'add', file, '--effect', operation.effect, '--sign-in', recipeFile],
      { ...env, LIFT_HOME: home },
    );
    if (added.code !== 0) throw new Error(`lift capabilities add failed: ${added.stderr}`);
    const registration = new Registrations(store.db).get(operation.name);
    // The registration keeps the whole recipe, and every replay signs in by it alone.
    const replaySignIn = registration && registeredSignIn(registration);
    if (!replaySignIn || JSON.stringify(replaySignIn) !== JSON.stringify(signIn))
      throw new Error(`the registration kept another sign-in: ${JSON.stringify(registration?.signIn)}`);
    const registered = await new CapabilityStore(store.capabilities).load(registration.revision);
    for (const [index, test] of operation.cases.entries()) {
      record.tried++;
      await app.reset();
      if (operation.throughGate) {
        const { untouched } = operation.throughGate;
        try {
          const approved = await replayThroughGate(
            operation.name,
            test.inputs,
            { ...env, LIFT_HOME: home },
            () => untouched(app, test.inputs),
          );
          console.log(`${operation.name} case ${index}: ${approved.outcome} after approval`);
          if (await test.check(app, approved)) record.correct++;
          else
            record.failures.push(`case ${index}: wrong state or output ${JSON.stringify(approved.outputs)}`);
        } catch (error) {
          record.failures.push(`case ${index}: ${error instanceof Error ? error.message : String(error)}`);
        }
        continue;
      }
      const replayContext = await browser.newContext();
      try {
        const replayed = await replayCapability(registered, test.inputs, {
          page: await replayContext.newPage(),
          revision: registration.revision,
          effectClass: registration.effectClass,
          evidenceDir: join(home, 'evidence'),
          signIn: replaySignIn,
          secret,
        });
        console.log(`${operation.name} case ${index}: ${replayed.outcome} in ${replayed.durationMs} ms`);
        if (await test.check(app, replayed)) record.correct++;
        else record.failures.push(`case ${index}: wrong state or output ${JSON.stringify(replayed.outputs)}`);
      } catch (error) {
        record.failures.push(`case ${index}: ${failureOf(error)}`);
      } finally {
        await replayContext.close();
      }
    }
    return { record, capability, log: explorer.log };
  } finally {
    store.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** A replay's failure as the record keeps it: the message, and what the error saw (a skeleton, the targets offered). */
function failureOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const details = (error as { details?: unknown }).details;
  return details === undefined ? error.message : `${error.message} ${JSON.stringify(details).slice(0, 3000)}`;
}

/** One line per operation, for the closing note. */
export function formatRecord(record: OperationRecord): string {
  return `${record.app} ${record.operation}: explorer calls ${record.explorerCalls}, rejections ${record.rejections}, steps ${record.steps}, replays correct ${record.correct}/${record.tried}${record.failures.length ? `\n  ${record.failures.join('\n  ')}` : ''}`;
}
