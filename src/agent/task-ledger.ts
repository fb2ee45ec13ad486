import type { Db } from '../store/database.js';

export type TaskOutcome = 'answered' | 'pending' | 'budget' | 'failed';

/** One task, measured: the row `lift ledger` prints. */
export interface TaskRow {
  id: number;
  runId: string;
  request: string;
  provider: string;
  model: string;
  modelCalls: number;
  /** HTTP requests to the model: retries and hedged backups included. */
  modelRequests: number;
  toolCalls: number;
  uiActions: number;
  inputTokens: number;
  outputTokens: number;
  schemaTokens: number;
  seconds: number;
  checksPassed: number;
  checksTotal: number;
  outcome: TaskOutcome;
  /** Which budget ended the run, when one did. */
  stoppedBy: string | undefined;
  startedAt: string;
}

interface Row {
  id: number;
  run_id: string;
  request: string;
  provider: string;
  model: string;
  model_calls: number;
  model_requests: number;
  tool_calls: number;
  ui_actions: number;
  input_tokens: number;
  output_tokens: number;
  schema_tokens: number;
  seconds: number;
  checks_passed: number;
  checks_total: number;
  outcome: TaskOutcome;
  stopped_by: string | null;
  started_at: string;
}

function fromRow(row: Row): TaskRow {
  return {
    id: row.id,
    runId: row.run_id,
    request: row.request,
    provider: row.provider,
    model: row.model,
    modelCalls: row.model_calls,
    modelRequests: row.model_requests,
    toolCalls: row.tool_calls,
    uiActions: row.ui_actions,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    schemaTokens: row.schema_tokens,
    seconds: row.seconds,
    checksPassed: row.checks_passed,
    checksTotal: row.checks_total,
    outcome: row.outcome,
    stoppedBy: row.stopped_by ?? undefined,
    startedAt: row.started_at,
  };
}

/** The agent's task ledger: one row per `lift run`, in the store's database. */
export class TaskLedger {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  add(row: Omit<TaskRow, 'id'>): TaskRow {
    const result = this.#db
      .prepare(
        `INSERT INTO agent_tasks (run_id, request, provider, model, model_calls, model_requests, tool_calls, ui_actions,
           input_tokens, output_tokens, schema_tokens, seconds, checks_passed, checks_total, outcome, stopped_by, started_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.runId,
        row.request,
        row.provider,
        row.model,
        row.modelCalls,
        row.modelRequests,
        row.toolCalls,
        row.uiActions,
        row.inputTokens,
        row.outputTokens,
        row.schemaTokens,
        row.seconds,
        row.checksPassed,
        row.checksTotal,
        row.outcome,
        row.stoppedBy ?? null,
        row.startedAt,
      );
    return { ...row, id: Number(result.lastInsertRowid) };
  }

  list(limit = 50): TaskRow[] {
    return this.#db
      .prepare<[number], Row>('SELECT * FROM agent_tasks ORDER BY id DESC LIMIT ?')
      .all(limit)
      .map(fromRow)
      .reverse();
  }
}
