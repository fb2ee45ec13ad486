import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Capability } from '../../capability/capability.js';
import { type Envelope, isError, isPending, isSuccess } from '../../contract/envelope.js';
import type { Explorer } from '../../discover/explorers/explorer.js';
import {
  MEMBER_LOOKUP_SCRIPT,
  MEMBER_NOTE_SCRIPT,
  memberLookupPolicy,
  memberLookupTask,
  memberNoteTask,
} from '../../discover/explorers/member-lookup-script.js';
import { ScriptedExplorer } from '../../discover/explorers/scripted.js';
import { type DiscoveryResult, runDiscovery } from '../../discover/run.js';
import { type BackofficeServer, loadMembers, startBackoffice } from '../../fixtures/backoffice/index.js';
import { capabilityDeps } from '../../replay/load.js';
import { describeTarget } from '../../replay/targets.js';
import { capabilityTool } from '../../replay/tool.js';
import { PAGE_POOL_SERVICE, startPagePool } from '../../rungs/ui/page-pool.js';
import { parsePolicy } from '../../rungs/ui/policy.js';
import { passwordFormSignIn } from '../../rungs/ui/sign-in.js';
import { Runtime } from '../../runtime/runtime.js';
import { isModelEvent } from '../../store/runs.js';
import { parse } from '../args.js';
import type { CliIo, Command } from '../io.js';
import { printJson } from '../io.js';
import { modelExplorerFromEnv } from './discover.js';

const SECRET = 'backoffice_password';
const REPLAYS: Array<{ memberId: string; layout: 'normal' | 'reversed' }> = [
  { memberId: 'M-1002', layout: 'normal' },
  { memberId: 'M-1004', layout: 'normal' },
  { memberId: 'M-1005', layout: 'normal' },
  { memberId: 'M-1002', layout: 'reversed' },
  { memberId: 'M-1004', layout: 'reversed' },
  { memberId: 'M-1005', layout: 'reversed' },
  { memberId: 'M-9999', layout: 'normal' },
];

interface LedgerRow {
  task: string;
  model: number;
  tools: number;
  ui: number;
  tokens: number;
  ms: number;
  checks: string;
}

interface ReplayReport {
  input: { memberId: string };
  layout: 'normal' | 'reversed';
  outcome: string;
  outputs: Record<string, unknown>;
  ms: number;
  modelEvents: number;
  uiActions: number;
  runId: string;
  checks: string;
}

function card(capability: Capability, revision: string): string[] {
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
        : `${describeTarget(step.target)}${step.op === 'fill' || step.op === 'select' ? ` <- ${'input' in step.value ? `{input: ${step.value.input}}` : JSON.stringify('literal' in step.value ? step.value.literal : step.value.template)}` : ''}${step.op === 'read' ? ` -> ${step.output}` : ''}`;
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

function ledgerTable(rows: LedgerRow[]): string[] {
  const header = `${'task'.padEnd(44)} ${'model'.padStart(5)} ${'tools'.padStart(5)} ${'UI'.padStart(4)} ${'tokens'.padStart(7)} ${'ms'.padStart(7)}  checks`;
  return [
    header,
    ...rows.map(
      (row) =>
        `${row.task.padEnd(44)} ${String(row.model).padStart(5)} ${String(row.tools).padStart(5)} ${String(row.ui).padStart(4)} ${row.tokens.toLocaleString('en-US').padStart(7)} ${String(row.ms).padStart(7)}  ${row.checks}`,
    ),
  ];
}

function explorerFor(
  io: CliIo,
  runtime: Runtime,
  script: typeof MEMBER_LOOKUP_SCRIPT,
): { explorer: Explorer; note: string } {
  const model = modelExplorerFromEnv(io.env, runtime.store.secrets);
  if (model) return { explorer: model, note: `model explorer: ${model.model} (LIFT_MODEL is set)` };
  return {
    explorer: new ScriptedExplorer(script),
    note: 'scripted explorer (LIFT_MODEL is not set): a recorded list of tool calls, no model; every action is still validated, executed and compiled for real',
  };
}

/** lift demo [--json] [--keep]: discover, compile, replay, hold a write, print the ledger. */
export const run: Command = async (args, io) => {
  const { values } = parse(args, {
    json: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  });
  const json = values.json;
  const say = (text: string) => {
    if (!json) io.out(text);
  };
  const t0 = performance.now();
  const home = mkdtempSync(join(tmpdir(), 'lift-demo-'));
  let fixture: BackofficeServer | undefined;
  let runtime: Runtime | undefined;
  try {
    fixture = await startBackoffice();
    say(
      `[demo] back-office fixture on ${fixture.url} (sign-in, iframe workspace, plain tables, no test ids)`,
    );
    runtime = new Runtime({ home, tools: [] });
    runtime.store.secrets.set(SECRET, 'backoffice-demo');
    const pool = await runtime.service(PAGE_POOL_SERVICE, () => startPagePool(home));
    say('[demo] Chromium started; one warm context per profile');
    const deps = capabilityDeps(runtime);
    const policy = parsePolicy(memberLookupPolicy(fixture.origin));
    const secrets = runtime.store.secrets;
    const signIn = {
      recipe: passwordFormSignIn(fixture.user, { secret: SECRET }),
      secret: (name: string) => secrets.get(name),
    };
    const liftVersion = '0.1.0';

    const discover = async (
      task: ReturnType<typeof memberLookupTask>,
      script: typeof MEMBER_LOOKUP_SCRIPT,
    ) => {
      const { explorer, note } = explorerFor(io, runtime!, script);
      say(`[demo] discovering '${task.name}' with the ${note}`);
      const lease = await pool.fresh(fixture!.origin);
      try {
        return await runDiscovery({
          store: runtime!.store,
          capabilities: deps.capabilities,
          page: lease.page,
          policy,
          task,
          explorer,
          hidden: ['Balance'],
          signIn,
          saveProfile: lease.save,
          liftVersion,
        });
      } finally {
        await lease.release();
      }
    };

    const lookup = await discover(memberLookupTask(fixture.origin, 'M-1001'), MEMBER_LOOKUP_SCRIPT);
    if (!lookup.capability || !lookup.revision)
      throw new Error(`Discovery did not complete: ${lookup.status.reason ?? lookup.status.outcome}`);
    say(
      `[demo] discovery ${lookup.status.outcome} in ${lookup.durationMs} ms: ${lookup.status.steps} tool calls, ${lookup.status.rejected} rejected, observations of ${lookup.observationTokens.join(', ')} tokens`,
    );
    for (const line of card(lookup.capability, lookup.revision)) say(`  ${line}`);

    const registration = deps.registrations.register({
      name: lookup.capability.name,
      revision: lookup.revision,
      effectClass: 'read',
      signIn: { user: fixture.user, secret: SECRET },
    });
    runtime.registry.add(capabilityTool(lookup.capability, registration, deps));
    say(
      `[demo] registered as tool '${registration.name}' (rung script, effect read, verified by the checkpoint)`,
    );

    const members = new Map(loadMembers().map((member) => [member.id, member]));
    const replays: ReplayReport[] = [];
    for (const { memberId, layout } of REPLAYS) {
      fixture.setLayout(layout);
      const started = performance.now();
      const envelope = await runtime.invoke(lookup.capability.name, { memberId });
      const ms = Math.round(performance.now() - started);
      const events = runtime.store.runs.events(envelope.run_id);
      const fields = isSuccess(envelope) ? envelope.fields : {};
      const expected = members.get(memberId)?.accounts.find((account) => account.type === 'Savings');
      const outcome = isError(envelope) ? envelope.error.code : String(fields.outcome);
      const matches = expected
        ? fields.savingsBalance === Number(expected.balance) && fields.currency === expected.currency
        : outcome === 'not_found';
      const checkpoint = isSuccess(envelope) ? envelope.checks.every((check) => check.passed) : false;
      const report: ReplayReport = {
        input: { memberId },
        layout,
        outcome,
        outputs: Object.fromEntries(Object.entries(fields).filter(([key]) => key !== 'outcome')),
        ms,
        modelEvents: events.filter(isModelEvent).length,
        uiActions: events.filter((event) => event.type === 'replay-step').length,
        runId: envelope.run_id,
        checks: expected
          ? `${checkpoint && matches ? 2 : Number(checkpoint) + Number(matches)}/2`
          : matches
            ? 'answer'
            : 'failed',
      };
      replays.push(report);
      say(
        `[demo] replay ${memberId} (${layout}): ${outcome} ${JSON.stringify(report.outputs)} in ${ms} ms, ${report.modelEvents} model events, data file ${matches ? 'agrees' : 'DISAGREES'}`,
      );
    }
    fixture.setLayout('normal');

    // A visible write: compiled the same way, registered with a review gate, approved by a person.
    const note = `Called back about the replacement card (${new Date().toISOString().slice(0, 10)}).`;
    const writeDiscovery = await discover(
      memberNoteTask(fixture.origin, 'M-1003', 'Discovery note: verified address.'),
      MEMBER_NOTE_SCRIPT,
    );
    if (!writeDiscovery.capability || !writeDiscovery.revision)
      throw new Error(`Write discovery did not complete: ${writeDiscovery.status.reason}`);
    const writeRegistration = deps.registrations.register({
      name: writeDiscovery.capability.name,
      revision: writeDiscovery.revision,
      effectClass: 'visible',
      signIn: { user: fixture.user, secret: SECRET },
    });
    runtime.registry.add(capabilityTool(writeDiscovery.capability, writeRegistration, deps));
    const writeStarted = performance.now();
    const held = await runtime.invoke(writeRegistration.name, {
      memberId: 'M-1001',
      note,
      request_id: 'demo-note-1',
    });
    if (!isPending(held)) throw new Error(`The write was not held: ${JSON.stringify(held)}`);
    say(`[demo] held for ${held.pending.gate}: ${held.pending.preview}`);
    say(`[demo] approving ${held.pending.approval_id} as 'demo operator'`);
    const approved: Envelope = await runtime.approve(held.pending.approval_id, { by: 'demo operator' });
    const writeMs = Math.round(performance.now() - writeStarted);
    const landed =
      fixture
        .members()
        .find((member) => member.id === 'M-1001')
        ?.notes.some((entry) => entry.text === note) ?? false;
    const writeEvents = runtime.store.runs.events(approved.run_id);
    say(
      `[demo] approved write: ${isSuccess(approved) ? approved.summary : JSON.stringify(approved)}; note in the fixture's data: ${landed ? 'yes' : 'NO'}`,
    );

    const rows: LedgerRow[] = [
      discoveryRow('discovery, member lookup', lookup),
      ...replays.map((replay) => ({
        task: `replay ${replay.input.memberId} ${replay.layout}${replay.outcome === 'not_found' ? ' (no such member)' : ''}`,
        model: replay.modelEvents,
        tools: 1,
        ui: replay.uiActions,
        tokens: 0,
        ms: replay.ms,
        checks: replay.checks,
      })),
      discoveryRow('discovery, add a note', writeDiscovery),
      {
        task: 'write: add note, held then approved',
        model: writeEvents.filter(isModelEvent).length,
        tools: 1,
        ui: writeEvents.filter((event) => event.type === 'replay-step').length,
        tokens: 0,
        ms: writeMs,
        checks: isSuccess(approved) && approved.ok && landed ? 'approved, 2/2' : 'failed',
      },
    ];
    const totalMs = Math.round(performance.now() - t0);
    const ok =
      replays.every(
        (replay) => replay.modelEvents === 0 && (replay.checks === '2/2' || replay.checks === 'answer'),
      ) &&
      isSuccess(approved) &&
      landed;
    if (json) {
      printJson(io, {
        ok,
        explorer: lookup.explorer,
        ...(lookup.model ? { model: lookup.model } : {}),
        capability: {
          name: lookup.capability.name,
          revision: lookup.revision,
          steps: lookup.capability.steps.length,
        },
        discovery: {
          run_id: lookup.runId,
          tool_calls: lookup.status.steps,
          rejected: lookup.status.rejected,
          ui_actions: lookup.uiActions,
          observation_tokens: lookup.observationTokens,
          ms: lookup.durationMs,
        },
        replays: replays.map((replay) => ({
          input: replay.input,
          layout: replay.layout,
          outcome: replay.outcome,
          outputs: replay.outputs,
          ms: replay.ms,
          model_events: replay.modelEvents,
          run_id: replay.runId,
        })),
        write: {
          capability: writeRegistration.name,
          revision: writeDiscovery.revision,
          approval_id: held.pending.approval_id,
          ok: isSuccess(approved) && approved.ok,
          landed,
          model_events: writeEvents.filter(isModelEvent).length,
        },
        ledger: rows,
        total_ms: totalMs,
      });
    } else {
      io.out('');
      for (const line of ledgerTable(rows)) io.out(line);
      io.out('');
      io.out(
        `[demo] ${ok ? 'done' : 'FAILED'} in ${(totalMs / 1000).toFixed(1)} s; every replay ran with 0 model events (count them: lift runs show RUN_ID)`,
      );
    }
    return ok ? 0 : 1;
  } finally {
    await runtime?.close();
    await fixture?.close();
    if (!values.keep) rmSync(home, { recursive: true, force: true });
    else if (!json) io.out(`[demo] kept ${home} (LIFT_HOME=${home} lift capabilities list)`);
  }
};

function discoveryRow(task: string, result: DiscoveryResult): LedgerRow {
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
