import type { MEMBER_LOOKUP_SCRIPT, memberLookupTask } from '../apps/backoffice/member-lookup-script.js';
import type { Capability } from '../capability/capability.js';
import { LIFT_VERSION } from '../contract/version.js';
import { ScriptedExplorer } from '../discover/explorers/scripted.js';
import { type DiscoveryResult, runDiscovery } from '../discover/run.js';
import { describeTarget } from '../replay/targets.js';
import { passwordFormSignIn } from '../rungs/ui/sign-in.js';
import { DEMO_SECRET, type DemoStage, type LedgerRow } from './stage.js';

/** Phase one (and the write's first step): one exploration of the fixture, compiled into a capability. */
export async function discover(
  stage: DemoStage,
  task: ReturnType<typeof memberLookupTask>,
  script: typeof MEMBER_LOOKUP_SCRIPT,
): Promise<DiscoveryResult> {
  const model = stage.modelExplorer();
  const explorer = model ?? new ScriptedExplorer(script);
  const note = model
    ? `model explorer: ${model.model} (LIFT_MODEL is set)`
    : 'scripted explorer (LIFT_MODEL is not set): a recorded list of tool calls, no model; every action is still validated, executed and compiled for real';
  stage.say(`[demo] discovering '${task.name}' with the ${note}`);
  const secrets = stage.runtime.store.secrets;
  const lease = await stage.pool.fresh(stage.fixture.origin);
  try {
    return await runDiscovery({
      store: stage.runtime.store,
      capabilities: stage.deps.capabilities,
      page: lease.page,
      policy: stage.policy,
      task,
      explorer,
      hidden: ['Balance'],
      signIn: {
        recipe: passwordFormSignIn(stage.fixture.user, { secret: DEMO_SECRET }),
        secret: (name: string) => secrets.get(name),
      },
      saveProfile: lease.save,
      liftVersion: LIFT_VERSION,
    });
  } finally {
    await lease.release();
  }
}

/** The capability as a person reviews it: inputs, outputs, each step, the checkpoint. */
export function card(capability: Capability, revision: string): string[] {
  const lines = [
    `capability  ${capability.name}   revision ${revision}`,
    `intent      ${capability.intent}`,
    `inputs      ${capability.inputs.map((input) => `${input.name}: ${input.type}`).join(', ')}`,
    `outputs     ${capability.outputs.map((output) => `${output.name}: ${output.type}`).join(', ')}`,
    `outcomes    ${capability.outcomes.join(', ')}`,
    `start       ${capability.preconditions.path}  (fingerprint ${capability.preconditions.fingerprint.slice(0, 12)})`,
    `steps       ${capability.steps.length}`,
  ];
  capability.steps.forEach((step, index) => {
    const what =
      step.op === 'navigate'
        ? step.path
        : `${describeTarget(step.target)}${step.op === 'fill' || step.op === 'type' || step.op === 'select' ? ` <- ${'input' in step.value ? `{input: ${step.value.input}}` : JSON.stringify('literal' in step.value ? step.value.literal : step.value.template)}` : ''}${step.op === 'read' ? ` -> ${step.output}` : ''}`;
    lines.push(`  ${String(index + 1).padStart(2)}. ${step.op.padEnd(8)} ${what}`);
  });
  lines.push(
    `checkpoint  ${describeTarget(capability.checkpoint.target)} == input ${capability.checkpoint.equals.input}`,
  );
  lines.push(
    `provenance  explorer ${capability.provenance.explorer}${capability.provenance.model ? ` (${capability.provenance.model})` : ''}, run ${capability.provenance.runId}`,
  );
  return lines;
}

export function discoveryRow(task: string, result: DiscoveryResult): LedgerRow {
  return {
    task,
    model: result.modelCalls,
    tools: result.status.steps,
    ui: result.uiActions,
    tokens:
      result.modelTokens > 0
        ? result.modelTokens
        : result.observationTokens.reduce((sum, tokens) => sum + tokens, 0),
    ms: result.durationMs,
    checks: result.capability ? `compiled ${result.capability.steps.length} steps` : 'failed',
  };
}
