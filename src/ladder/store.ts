import type { Rung } from '../contract/effects.js';
import type { Db } from '../store/database.js';
import type { DeclaredOperation } from './declaration.js';

export type TestName = 'present' | 'unattended' | 'readable_back';

export interface TestResult {
  passed: boolean;
  evidence: string;
}

/** What the walk found on one door. Tests after the first failure are not run. */
export interface CandidateResult {
  rung: Rung;
  label: string;
  tool: string;
  /** What identifies this door's current version: the spec's hash, the capability's revision. */
  fingerprint: string | undefined;
  tests: Partial<Record<TestName, TestResult>>;
  passed: boolean;
}

export type WalkTrigger = 'demand' | 'schedule' | 'rediscovered' | 'released' | 'step_down' | 'declared';
export type Direction = 'first' | 'same' | 'down' | 'up' | 'none';

export interface Walk {
  id: number;
  operation: string;
  at: string;
  trigger: WalkTrigger;
  rung: Rung | undefined;
  previousRung: Rung | undefined;
  direction: Direction;
  results: CandidateResult[];
  note: string | undefined;
}

interface WalkRow {
  id: number;
  operation: string;
  at: string;
  trigger: WalkTrigger;
  rung: Rung | null;
  previous_rung: Rung | null;
  direction: Direction;
  results: string;
  note: string | null;
}

function fromRow(row: WalkRow): Walk {
  return {
    id: row.id,
    operation: row.operation,
    at: row.at,
    trigger: row.trigger,
    rung: row.rung ?? undefined,
    previousRung: row.previous_rung ?? undefined,
    direction: row.direction,
    results: JSON.parse(row.results) as CandidateResult[],
    note: row.note ?? undefined,
  };
}

/** The ladder's own tables: declared operations, every walk with its evidence, and schedules. */
export class LadderStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  declare(operation: DeclaredOperation): void {
    this.#db
      .prepare(
        `INSERT INTO ladder_operations (name, declaration, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET declaration = excluded.declaration, updated_at = excluded.updated_at`,
      )
      .run(operation.name, JSON.stringify(operation), new Date().toISOString());
  }

  operation(name: string): DeclaredOperation | undefined {
    const row = this.#db
      .prepare<[string], { declaration: string }>('SELECT declaration FROM ladder_operations WHERE name = ?')
      .get(name);
    return row ? (JSON.parse(row.declaration) as DeclaredOperation) : undefined;
  }

  operations(): DeclaredOperation[] {
    return this.#db
      .prepare<[], { declaration: string }>('SELECT declaration FROM ladder_operations ORDER BY name')
      .all()
      .map((row) => JSON.parse(row.declaration) as DeclaredOperation);
  }

  record(walk: Omit<Walk, 'id'>): Walk {
    const result = this.#db
      .prepare(
        `INSERT INTO ladder_walks (operation, at, trigger, rung, previous_rung, direction, results, note)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        walk.operation,
        walk.at,
        walk.trigger,
        walk.rung ?? null,
        walk.previousRung ?? null,
        walk.direction,
        JSON.stringify(walk.results),
        walk.note ?? null,
      );
    return { ...walk, id: Number(result.lastInsertRowid) };
  }

  latest(operation: string): Walk | undefined {
    const row = this.#db
      .prepare<[string], WalkRow>('SELECT * FROM ladder_walks WHERE operation = ? ORDER BY id DESC LIMIT 1')
      .get(operation);
    return row ? fromRow(row) : undefined;
  }

  walks(operation: string): Walk[] {
    return this.#db
      .prepare<[string], WalkRow>('SELECT * FROM ladder_walks WHERE operation = ? ORDER BY id')
      .all(operation)
      .map(fromRow);
  }

  schedule(operation: string, everyMs: number, from = Date.now()): void {
    this.#db
      .prepare(
        `INSERT INTO ladder_schedules (operation, every_ms, next_at) VALUES (?, ?, ?)
         ON CONFLICT (operation) DO UPDATE SET every_ms = excluded.every_ms, next_at = excluded.next_at`,
      )
      .run(operation, everyMs, new Date(from + everyMs).toISOString());
  }

  scheduleOf(operation: string): { everyMs: number; nextAt: string } | undefined {
    const row = this.#db
      .prepare<[string], { every_ms: number; next_at: string }>(
        'SELECT every_ms, next_at FROM ladder_schedules WHERE operation = ?',
      )
      .get(operation);
    return row ? { everyMs: row.every_ms, nextAt: row.next_at } : undefined;
  }

  /** Moves a schedule on after a walk it triggered. */
  advance(operation: string, now = Date.now()): void {
    const current = this.scheduleOf(operation);
    if (current) this.schedule(operation, current.everyMs, now);
  }
}
