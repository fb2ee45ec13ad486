import type { Capability } from '../capability/capability.js';
import { isSuccess } from '../contract/envelope.js';
import type { DiscoveryResult } from '../discover/run.js';
import type { ReplayReport } from './replays.js';
import type { LedgerRow } from './stage.js';
import type { WriteReport } from './write.js';

/** The closing table: one row per task, model calls first. */
export function ledgerTable(rows: LedgerRow[]): string[] {
  const header = `${'task'.padEnd(44)} ${'model'.padStart(5)} ${'tools'.padStart(5)} ${'UI'.padStart(4)} ${'tokens'.padStart(7)} ${'ms'.padStart(7)}  checks`;
  return [
    header,
    ...rows.map(
      (row) =>
        `${row.task.padEnd(44)} ${String(row.model).padStart(5)} ${String(row.tools).padStart(5)} ${String(row.ui).padStart(4)} ${row.tokens.toLocaleString('en-US').padStart(7)} ${String(row.ms).padStart(7)}  ${row.checks}`,
    ),
  ];
}

/** lift demo --json: what each phase did, in snake_case. */
export function demoJson(
  ok: boolean,
  lookup: DiscoveryResult & { capability: Capability; revision: string },
  replays: ReplayReport[],
  write: WriteReport,
  rows: LedgerRow[],
  totalMs: number,
): Record<string, unknown> {
  return {
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
      capability: write.capability,
      revision: write.discovery.revision,
      approval_id: write.approvalId,
      ok: isSuccess(write.approved) && write.approved.ok,
      landed: write.landed,
      model_events: write.modelEvents,
    },
    ledger: rows,
    total_ms: totalMs,
  };
}
