import { type EffectClass, RUNG_TITLES, type Rung, rungNumber } from '../contract/effects.js';
import { failureCounts } from './failures.js';
import type { Ladder, StepDownProposal } from './ladder.js';
import type { TestName, WalkTrigger } from './store.js';

const UI_RUNGS: readonly Rung[] = ['script', 'ui', 'screen'];

export type FlagName =
  | 'ui_rung_on_own_system'
  | 'stepped_down_twice'
  | 'irreversible_only_through_ui'
  | 'no_rung';

export interface Flag {
  flag: FlagName;
  message: string;
}

export interface OperationReport {
  operation: string;
  description: string;
  system: string;
  own_system: boolean;
  effect: EffectClass;
  rung: Rung | undefined;
  rung_title: string | undefined;
  tool: string | undefined;
  read_back: { operation: string; rung: Rung | undefined } | undefined;
  walked_at: string | undefined;
  trigger: WalkTrigger | undefined;
  walks: number;
  step_downs: number;
  /** Each higher door and the first test it failed, with the evidence. */
  ruled_out: Array<{ rung: Rung; door: string; test: TestName; evidence: string }>;
  /** The chosen door's three tests and their evidence. */
  evidence: Array<{ test: TestName; evidence: string }>;
  /** Failed calls by tool and error code: all time, and since the latest walk. */
  failures: {
    total: Record<string, Record<string, number>>;
    since_walk: Record<string, Record<string, number>>;
  };
  proposal: StepDownProposal | undefined;
  schedule: { every_ms: number; next_at: string } | undefined;
  flags: Flag[];
}

function flagsOf(report: Omit<OperationReport, 'flags'>): Flag[] {
  const flags: Flag[] = [];
  const onUi = report.rung !== undefined && UI_RUNGS.includes(report.rung);
  if (report.rung === undefined) {
    flags.push({
      flag: 'no_rung',
      message: 'No door passes the three tests: a person keeps this operation.',
    });
  }
  if (onUi && report.own_system) {
    flags.push({
      flag: 'ui_rung_on_own_system',
      message: `Stop retrofitting: ${report.system} is your own system, yet this operation is on a UI rung. Ask its owners for an API.`,
    });
  }
  if (report.step_downs >= 2) {
    flags.push({
      flag: 'stepped_down_twice',
      message: `Stop retrofitting: this operation has stepped down ${report.step_downs} times. Ask the system's owner for an API.`,
    });
  }
  if (onUi && report.effect === 'irreversible') {
    flags.push({
      flag: 'irreversible_only_through_ui',
      message:
        'Stop retrofitting: an irreversible effect whose only door is a UI. Ask for an API; until then a person approves every call.',
    });
  }
  return flags;
}

/** Every declared operation with its rung, why higher rungs were ruled out, its failures and its flags. */
export async function ladderReport(ladder: Ladder): Promise<OperationReport[]> {
  const reports: OperationReport[] = [];
  for (const operation of ladder.store.operations()) {
    const walks = ladder.store.walks(operation.name);
    const latest = walks.at(-1);
    const chosen = latest?.results.find((result) => result.passed && result.rung === latest.rung);
    const uniqueTools = [
      ...new Set([
        ...operation.candidates.flatMap((candidate) =>
          'tool' in candidate && candidate.tool ? [candidate.tool] : [],
        ),
        ...walks.flatMap((walk) => walk.results.map((result) => result.tool)),
      ]),
    ];
    const schedule = ladder.store.scheduleOf(operation.name);
    const readBack = operation.read_back ? ladder.store.latest(operation.read_back) : undefined;
    const base: Omit<OperationReport, 'flags'> = {
      operation: operation.name,
      description: operation.description,
      system: operation.system,
      own_system: operation.own,
      effect: operation.effect,
      rung: latest?.rung,
      rung_title: latest?.rung ? RUNG_TITLES[latest.rung] : undefined,
      tool: chosen?.tool,
      read_back: operation.read_back ? { operation: operation.read_back, rung: readBack?.rung } : undefined,
      walked_at: latest?.at,
      trigger: latest?.trigger,
      walks: walks.length,
      step_downs: walks.filter((walk) => walk.direction === 'down').length,
      ruled_out: (latest?.results ?? [])
        .filter((result) => !result.passed)
        .map((result) => {
          const [test, outcome] = (
            Object.entries(result.tests) as Array<[TestName, { passed: boolean; evidence: string }]>
          ).find(([, each]) => !each.passed) ?? ['present', { passed: false, evidence: 'not tested' }];
          return { rung: result.rung, door: result.label, test, evidence: outcome.evidence };
        }),
      evidence: chosen
        ? (Object.entries(chosen.tests) as Array<[TestName, { evidence: string }]>).map(([test, each]) => ({
            test,
            evidence: each.evidence,
          }))
        : [],
      failures: {
        total: await failureCounts(ladder.runtime, uniqueTools),
        since_walk: latest ? await failureCounts(ladder.runtime, uniqueTools, latest.at) : {},
      },
      proposal: await ladder.check(operation.name),
      schedule: schedule ? { every_ms: schedule.everyMs, next_at: schedule.nextAt } : undefined,
    };
    reports.push({ ...base, flags: flagsOf(base) });
  }
  return reports;
}

const TEST_TITLES: Record<TestName, string> = {
  present: 'present',
  unattended: 'unattended',
  readable_back: 'readable back',
};

function counts(byTool: Record<string, Record<string, number>>): string {
  const parts = Object.entries(byTool).flatMap(([tool, byCode]) =>
    Object.entries(byCode).map(([code, count]) => `${tool} ${code} × ${count}`),
  );
  return parts.length > 0 ? parts.join(', ') : 'none';
}

/** The report as text, one block per operation in the layout of the contract's Rung heading. */
export function formatReport(reports: OperationReport[]): string {
  const blocks = reports.map((report) => {
    const rung = report.rung ? `rung ${rungNumber(report.rung)} ${report.rung_title}` : 'no rung';
    const readBack = report.read_back
      ? ` · read-back on rung ${report.read_back.rung ? rungNumber(report.read_back.rung) : '?'} (${report.read_back.operation})`
      : '';
    const lines = [
      `${report.operation}  ${rung}${readBack}  [${report.effect}, system ${report.system}${report.own_system ? ' (own)' : ''}]`,
    ];
    if (report.tool) lines.push(`  tool        ${report.tool}`);
    for (const out of report.ruled_out) {
      lines.push(
        `  ruled out   ${rungNumber(out.rung)} ${out.door}: fails "${TEST_TITLES[out.test]}": ${out.evidence}`,
      );
    }
    for (const item of report.evidence)
      lines.push(`  evidence    ${TEST_TITLES[item.test]}: ${item.evidence}`);
    lines.push(
      `  walked      ${report.walks} time(s), last ${report.walked_at ?? 'never'} (${report.trigger ?? '-'}); step-downs ${report.step_downs}`,
    );
    lines.push(
      `  failures    since walk: ${counts(report.failures.since_walk)}; all time: ${counts(report.failures.total)}`,
    );
    if (report.proposal) {
      const to = report.proposal.to
        ? `rung ${rungNumber(report.proposal.to)} (${report.proposal.to})`
        : 'no rung (a person)';
      lines.push(
        `  PROPOSAL    step down to ${to}: ${report.proposal.count} × ${report.proposal.code} > ${report.proposal.threshold}; accept with lift ladder step-down ${report.operation}`,
      );
    }
    if (report.schedule)
      lines.push(
        `  schedule    every ${Math.round(report.schedule.every_ms / 3_600_000)} h, next ${report.schedule.next_at}`,
      );
    for (const flag of report.flags) lines.push(`  FLAG        ${flag.message}`);
    return lines.join('\n');
  });
  return blocks.join('\n\n');
}
