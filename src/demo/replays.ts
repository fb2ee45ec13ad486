import { isError, isSuccess } from '../contract/envelope.js';
import { loadMembers } from '../fixtures/backoffice/index.js';
import { isModelEvent } from '../store/runs.js';
import type { DemoStage, LedgerRow } from './stage.js';

const REPLAYS: Array<{ memberId: string; layout: 'normal' | 'reversed' }> = [
  { memberId: 'M-1002', layout: 'normal' },
  { memberId: 'M-1004', layout: 'normal' },
  { memberId: 'M-1005', layout: 'normal' },
  { memberId: 'M-1002', layout: 'reversed' },
  { memberId: 'M-1004', layout: 'reversed' },
  { memberId: 'M-1005', layout: 'reversed' },
  { memberId: 'M-9999', layout: 'normal' },
];

export interface ReplayReport {
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

/** Phase two: the registered capability called on both layouts, each answer checked against the fixture's data. */
export async function replayOnBothLayouts(stage: DemoStage, tool: string): Promise<ReplayReport[]> {
  const { fixture, runtime } = stage;
  const members = new Map(loadMembers().map((member) => [member.id, member]));
  const replays: ReplayReport[] = [];
  for (const { memberId, layout } of REPLAYS) {
    fixture.setLayout(layout);
    const started = performance.now();
    const envelope = await runtime.invoke(tool, { memberId });
    const ms = Math.round(performance.now() - started);
    const events = await runtime.store.runs.events(envelope.run_id);
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
      uiActions: events.filter((event) => event.type === 'replay-step-end').length,
      runId: envelope.run_id,
      checks: expected
        ? `${checkpoint && matches ? 2 : Number(checkpoint) + Number(matches)}/2`
        : matches
          ? 'answer'
          : 'failed',
    };
    replays.push(report);
    stage.say(
      `[demo] replay ${memberId} (${layout}): ${outcome} ${JSON.stringify(report.outputs)} in ${ms} ms, ${report.modelEvents} model events, data file ${matches ? 'agrees' : 'DISAGREES'}`,
    );
  }
  fixture.setLayout('normal');
  return replays;
}

export function replayRow(replay: ReplayReport): LedgerRow {
  return {
    task: `replay ${replay.input.memberId} ${replay.layout}${replay.outcome === 'not_found' ? ' (no such member)' : ''}`,
    model: replay.modelEvents,
    tools: 1,
    ui: replay.uiActions,
    tokens: 0,
    ms: replay.ms,
    checks: replay.checks,
  };
}
