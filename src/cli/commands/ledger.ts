import { TaskLedger, type TaskRow } from '../../agent/task-ledger.js';
import { formatCount } from '../../model/tokens.js';
import { parse } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { numberFlag } from '../number-flag.js';
import { openRuntime } from '../open-runtime.js';

const COLUMNS =
  'task                                      model tools   UI  tokens in  tokens out  seconds  checks  outcome';

function shorten(text: string, width: number): string {
  return text.length <= width ? text.padEnd(width) : `${text.slice(0, width - 1)}…`;
}

function line(row: TaskRow): string {
  const checks = row.checksTotal > 0 ? `${row.checksPassed}/${row.checksTotal}` : '-';
  const outcome = row.stoppedBy ? `${row.outcome} (${row.stoppedBy})` : row.outcome;
  return [
    shorten(row.request, 40),
    // Extra requests (retries, hedged backups) show as +N after the calls.
    (row.modelRequests > row.modelCalls
      ? `${row.modelCalls}+${row.modelRequests - row.modelCalls}`
      : String(row.modelCalls)
    ).padStart(7),
    String(row.toolCalls).padStart(5),
    String(row.uiActions).padStart(4),
    formatCount(row.inputTokens).padStart(10),
    formatCount(row.outputTokens).padStart(11),
    `${row.seconds.toFixed(1)} s`.padStart(8),
    checks.padStart(7),
    ` ${outcome}`,
  ].join(' ');
}

/** lift ledger [--limit N]: one row per agent task. */
export const run: Command = async (args, io) => {
  const { values } = parse(
    args,
    { json: { type: 'boolean', default: false }, limit: { type: 'string', default: '50' } },
    false,
  );
  const limit =
    numberFlag(values.limit, '--limit', { min: 1, max: 10_000, unit: 'tasks', integer: true }) ?? 50;
  const runtime = await openRuntime(io);
  try {
    const rows = new TaskLedger(runtime.store.db).list(limit);
    if (values.json) printJson(io, rows);
    else if (rows.length === 0) io.out('No agent tasks yet: lift run "REQUEST" adds one.');
    else io.out([COLUMNS, ...rows.map(line)].join('\n'));
    return 0;
  } finally {
    await runtime.close();
  }
};
