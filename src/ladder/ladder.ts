import { CapabilityStore } from '../capability/store.js';
import { type Rung, rungNumber } from '../contract/effects.js';
import type { Runtime } from '../runtime/runtime.js';
import {
  type Candidate,
  candidateLabel,
  type DeclaredOperation,
  parseDeclarations,
  readDeclarations,
} from './declaration.js';
import { currentFingerprint, type DoorContext, testDoor } from './doors.js';
import { failureCounts, STEP_DOWN_CODES } from './failures.js';
import { type CandidateResult, type Direction, LadderStore, type Walk, type WalkTrigger } from './store.js';

export interface StepDownProposal {
  operation: string;
  from: Rung;
  tool: string;
  code: string;
  count: number;
  threshold: number;
  since: string;
  /** The next rung below that passes the three tests, if any. */
  to: Rung | undefined;
  toEvidence: string;
}

function byRung(candidates: Candidate[]): Candidate[] {
  return [...candidates].sort((a, b) => rungNumber(a.rung) - rungNumber(b.rung));
}

function direction(previous: Rung | undefined, next: Rung | undefined, first: boolean): Direction {
  if (first) return 'first';
  if (next === undefined) return previous === undefined ? 'same' : 'none';
  if (previous === undefined) return 'up';
  const delta = rungNumber(next) - rungNumber(previous);
  return delta === 0 ? 'same' : delta > 0 ? 'down' : 'up';
}

/**
 * The per-operation ladder: walks each declared operation from the top with the three
 * tests (present, unattended, readable back), records every walk with its evidence, steps
 * down on repeated failures in the run log, and climbs when a re-walk finds a higher door.
 */
export class Ladder {
  readonly runtime: Runtime;
  readonly store: LadderStore;
  readonly #context: DoorContext;
  readonly #walking = new Set<string>();

  constructor(runtime: Runtime) {
    this.runtime = runtime;
    this.store = new LadderStore(runtime.store.db);
    this.#context = {
      runtime,
      capabilities: new CapabilityStore(runtime.store.capabilities),
      rungOf: (name) => this.#rungOf(name),
    };
  }

  /** Stores (or replaces) the operations of a declaration file. */
  declare(file: string): DeclaredOperation[] {
    return this.#keep(readDeclarations(file));
  }

  /** Stores (or replaces) the operations an app declares (paths in it are absolute). */
  declareOperations(declaration: unknown, source: string): DeclaredOperation[] {
    return this.#keep(parseDeclarations(declaration, source));
  }

  #keep(operations: DeclaredOperation[]): DeclaredOperation[] {
    for (const operation of operations) this.store.declare(operation);
    return operations;
  }

  #operation(name: string): DeclaredOperation {
    const operation = this.store.operation(name);
    if (!operation) {
      const known = this.store.operations().map((each) => each.name);
      throw new Error(
        `No operation '${name}' is declared. Declared: ${known.join(', ') || '(none; use lift ladder declare FILE)'}.`,
      );
    }
    return operation;
  }

  async #rungOf(name: string): Promise<{ rung: Rung | undefined; evidence: string }> {
    if (!this.store.operation(name)) return { rung: undefined, evidence: `${name} is not declared` };
    const latest =
      this.store.latest(name) ?? (this.#walking.has(name) ? undefined : await this.walk(name, 'declared'));
    if (!latest) return { rung: undefined, evidence: `${name} is being walked (a read-back cycle)` };
    return { rung: latest.rung, evidence: latest.rung ? `walked ${latest.at}` : 'no door passed its walk' };
  }

  /**
   * A door stepped down from stays ruled out while it is unchanged (same description hash,
   * same capability revision); a new release or a rediscovery makes it eligible again.
   */
  async #heldOut(operation: string, candidate: Candidate): Promise<CandidateResult | undefined> {
    const label = candidateLabel(candidate);
    const stepDowns = this.store
      .walks(operation)
      .filter((walk) => walk.trigger === 'step_down')
      .reverse();
    const held = stepDowns
      .flatMap((walk) => walk.results)
      .find((result) => result.label === label && result.tests.present?.evidence.startsWith('stepped down'));
    if (!held || held.fingerprint !== (await currentFingerprint(candidate, this.#context))) return undefined;
    return held;
  }

  /** Walks the ladder from the top (or from below a rung) and records the result. */
  async walk(
    name: string,
    trigger: WalkTrigger = 'demand',
    options: { below?: Rung; note?: string; heldOut?: CandidateResult } = {},
  ): Promise<Walk> {
    const operation = this.#operation(name);
    this.#walking.add(name);
    try {
      const previous = this.store.latest(name);
      const results: CandidateResult[] = [];
      let chosen: Rung | undefined;
      for (const candidate of byRung(operation.candidates)) {
        if (options.below && rungNumber(candidate.rung) <= rungNumber(options.below)) {
          if (options.heldOut && candidateLabel(candidate) === options.heldOut.label)
            results.push(options.heldOut);
          continue;
        }
        const held = await this.#heldOut(name, candidate);
        if (held) {
          results.push(held);
          continue;
        }
        const result = await testDoor(candidate, operation, this.#context);
        results.push(result);
        if (result.passed) {
          chosen = candidate.rung;
          break;
        }
      }
      const walk = this.store.record({
        operation: name,
        at: new Date().toISOString(),
        trigger,
        rung: chosen,
        previousRung: previous?.rung,
        direction: direction(previous?.rung, chosen, previous === undefined),
        results,
        note: options.note,
      });
      if (trigger === 'schedule') this.store.advance(name);
      return walk;
    } finally {
      this.#walking.delete(name);
    }
  }

  /** The tool that carries the operation on its current door, from the latest walk. */
  currentTool(name: string): string | undefined {
    const latest = this.store.latest(name);
    return latest?.results.find((result) => result.passed && result.rung === latest.rung)?.tool;
  }

  /** Reads the run log: a step-down proposal when one failure code passed the threshold on the current door. */
  async check(name: string): Promise<StepDownProposal | undefined> {
    const operation = this.#operation(name);
    const latest = this.store.latest(name);
    const tool = this.currentTool(name);
    if (!latest?.rung || !tool) return undefined;
    const counts = (await failureCounts(this.runtime, [tool], latest.at))[tool] ?? {};
    const worst = STEP_DOWN_CODES.map((code) => ({ code, count: counts[code] ?? 0 })).sort(
      (a, b) => b.count - a.count,
    )[0]!;
    if (worst.count <= operation.step_down_after) return undefined;
    const below = byRung(operation.candidates).filter(
      (candidate) => rungNumber(candidate.rung) > rungNumber(latest.rung!),
    );
    let to: Rung | undefined;
    let toEvidence = 'no rung below passes the three tests: a person keeps this operation';
    for (const candidate of below) {
      const result = await testDoor(candidate, operation, this.#context);
      if (result.passed) {
        to = candidate.rung;
        toEvidence = Object.values(result.tests)
          .map((test) => test?.evidence)
          .join('; ');
        break;
      }
    }
    return {
      operation: name,
      from: latest.rung,
      tool,
      code: worst.code,
      count: worst.count,
      threshold: operation.step_down_after,
      since: latest.at,
      to,
      toEvidence,
    };
  }

  /** Accepts a proposal: walks again below the failing door and keeps that door out until it changes. */
  async stepDown(name: string): Promise<Walk> {
    const proposal = await this.check(name);
    if (!proposal)
      throw new Error(
        `The run log shows no repeated failure on ${name}'s current door; nothing to step down from.`,
      );
    const latest = this.store.latest(name)!;
    const current = latest.results.find((result) => result.rung === proposal.from && result.passed)!;
    const evidence = `stepped down on evidence: ${proposal.count} × ${proposal.code} from ${proposal.tool} since ${proposal.since} (threshold ${proposal.threshold})`;
    const heldOut: CandidateResult = {
      ...current,
      passed: false,
      tests: { present: { passed: false, evidence } },
    };
    return this.walk(name, 'step_down', { below: proposal.from, heldOut, note: evidence });
  }

  /** Operations due for a walk: a schedule that came round, or a door that changed since the last walk. */
  async due(now = Date.now()): Promise<Array<{ operation: string; trigger: WalkTrigger; reason: string }>> {
    const due: Array<{ operation: string; trigger: WalkTrigger; reason: string }> = [];
    for (const operation of this.store.operations()) {
      const latest = this.store.latest(operation.name);
      const schedule = this.store.scheduleOf(operation.name);
      if (!latest) {
        due.push({ operation: operation.name, trigger: 'declared', reason: 'never walked' });
        continue;
      }
      if (schedule && Date.parse(schedule.nextAt) <= now) {
        due.push({
          operation: operation.name,
          trigger: 'schedule',
          reason: `scheduled for ${schedule.nextAt}`,
        });
        continue;
      }
      for (const result of latest.results) {
        const candidate = operation.candidates.find((each) => candidateLabel(each) === result.label);
        if (!candidate) continue;
        const now = await currentFingerprint(candidate, this.#context);
        if (now !== result.fingerprint) {
          const trigger: WalkTrigger = 'capability' in candidate ? 'rediscovered' : 'released';
          due.push({
            operation: operation.name,
            trigger,
            reason: `${result.label} changed: ${result.fingerprint ?? 'absent'} -> ${now ?? 'absent'}`,
          });
          break;
        }
      }
    }
    return due;
  }

  async walkDue(now = Date.now()): Promise<Walk[]> {
    const walks: Walk[] = [];
    for (const { operation, trigger, reason } of await this.due(now))
      walks.push(await this.walk(operation, trigger, { note: reason }));
    return walks;
  }
}
