import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MEMBER_LOOKUP_SCRIPT,
  memberLookupPolicy,
  memberLookupTask,
} from '../../apps/backoffice/member-lookup-script.js';
import { isSuccess } from '../../contract/envelope.js';
import { card, discover, discoveryRow } from '../../demo/discover.js';
import { replayOnBothLayouts, replayRow } from '../../demo/replays.js';
import { demoJson, ledgerTable } from '../../demo/report.js';
import { DEMO_SECRET, type DemoStage } from '../../demo/stage.js';
import { heldWrite } from '../../demo/write.js';
import { type BackofficeServer, startBackoffice } from '../../fixtures/backoffice/index.js';
import { capabilityDeps } from '../../replay/load.js';
import { capabilityTool } from '../../replay/tool.js';
import { PAGE_POOL_SERVICE, startPagePool } from '../../rungs/ui/page-pool.js';
import { parsePolicy } from '../../rungs/ui/policy.js';
import { passwordFormSignIn } from '../../rungs/ui/sign-in.js';
import { Runtime } from '../../runtime/runtime.js';
import { parse } from '../args.js';
import type { CliIo, Command } from '../io.js';
import { printJson } from '../io.js';
import { defineCommand } from '../spec.js';
import { modelExplorerFromEnv } from './discover.js';

export const spec = defineCommand({
  name: 'demo',
  summary: 'the end-to-end demonstration: discover, compile, replay with no model, hold a write',
  options: {
    keep: { type: 'boolean', default: false, description: "keep the demo's Lift home and say where it is" },
    json: { type: 'boolean', default: false, description: 'print the results as JSON' },
  },
  examples: ['lift demo', 'LIFT_MODEL=openai:gpt-4.1-mini lift demo --json'],
  notes: 'Without LIFT_MODEL the demo explores with a scripted explorer and says so.',
});

/** The demo's runtime with the fixture's password stored, a warm browser, and the capability stores. */
async function stageIn(
  runtime: Runtime,
  io: CliIo,
  fixture: BackofficeServer,
  say: DemoStage['say'],
): Promise<DemoStage> {
  runtime.store.secrets.set(DEMO_SECRET, 'backoffice-demo');
  const pool = await runtime.service(PAGE_POOL_SERVICE, () => startPagePool(runtime.home));
  say('[demo] Chromium started; one warm context per profile');
  return {
    say,
    fixture,
    runtime,
    pool,
    deps: capabilityDeps(runtime),
    policy: parsePolicy(memberLookupPolicy(fixture.origin)),
    modelExplorer: () => modelExplorerFromEnv(io.env, runtime.store.secrets),
  };
}

/** lift demo [--json] [--keep]: discover, compile, replay, hold a write, print the ledger (phases in src/demo/). */
export const run: Command = async (args, io) => {
  const { values } = parse(args, spec);
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
    const stage = await stageIn(runtime, io, fixture, say);
    const lookup = await discover(stage, memberLookupTask(fixture.origin, 'M-1001'), MEMBER_LOOKUP_SCRIPT);
    if (!lookup.capability || !lookup.revision)
      throw new Error(`Discovery did not complete: ${lookup.status.reason ?? lookup.status.outcome}`);
    say(
      `[demo] discovery ${lookup.status.outcome} in ${lookup.durationMs} ms: ${lookup.status.steps} tool calls, ${lookup.status.rejected} rejected, observations of ${lookup.observationTokens.join(', ')} tokens`,
    );
    for (const line of card(lookup.capability, lookup.revision)) say(`  ${line}`);
    const registration = await stage.deps.registrations.register({
      name: lookup.capability.name,
      revision: lookup.revision,
      effectClass: 'read',
      signIn: passwordFormSignIn(fixture.user, { secret: DEMO_SECRET }),
    });
    stage.runtime.registry.add(capabilityTool(lookup.capability, registration, stage.deps));
    say(
      `[demo] registered as tool '${registration.name}' (rung script, effect read, verified by the checkpoint)`,
    );

    const replays = await replayOnBothLayouts(stage, lookup.capability.name);
    const write = await heldWrite(stage);
    const rows = [
      discoveryRow('discovery, member lookup', lookup),
      ...replays.map(replayRow),
      discoveryRow('discovery, add a note', write.discovery),
      write.row,
    ];
    const totalMs = Math.round(performance.now() - t0);
    const ok =
      replays.every(
        (replay) => replay.modelEvents === 0 && (replay.checks === '2/2' || replay.checks === 'answer'),
      ) &&
      isSuccess(write.approved) &&
      write.landed;
    if (json) {
      const found = { ...lookup, capability: lookup.capability, revision: lookup.revision };
      printJson(io, demoJson(ok, found, replays, write, rows, totalMs));
    } else {
      io.out('');
      for (const line of ledgerTable(rows)) io.out(line);
      io.out('');
      // The home goes when the demo ends unless --keep: a command naming a run in it would answer "No run has id".
      const countThem = values.keep
        ? `LIFT_HOME=${home} lift runs show ${replays[0]?.runId ?? 'RUN_ID'}`
        : 'lift demo --keep keeps the runs to read';
      io.out(
        `[demo] ${ok ? 'done' : 'FAILED'} in ${(totalMs / 1000).toFixed(1)} s; every replay ran with 0 model events (count them: ${countThem})`,
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
