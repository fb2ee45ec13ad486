import { type Envelope, isError, isPending } from '../contract/envelope.js';
import type { Runtime } from '../runtime/runtime.js';
import { type ChainFields, RUN_CHAIN } from './chain.js';
import { checkCounts } from './envelope-text.js';
import type { Conversation } from './gate.js';
import { toolLine } from './trace.js';

/** What one run has spent so far: the numbers of its ledger row. */
export class RunCounts {
  modelCalls = 0;
  modelRequests = 0;
  toolCalls = 0;
  uiActions = 0;
  inputTokens = 0;
  outputTokens = 0;
  schemaTokens = 0;
  checksPassed = 0;
  checksTotal = 0;
}

const checksText = (passed: number, total: number) => (total > 0 ? `, ${passed}/${total} checks` : '');

function describeOutcome(envelope: Envelope): string {
  if (isPending(envelope)) return 'held for a yes';
  if (isError(envelope)) return `${envelope.error.code}: ${envelope.error.message}`;
  const counts = checkCounts(envelope);
  const files = Object.values(envelope.files);
  return `${envelope.ok ? 'ok' : 'failed'}${checksText(counts.passed, counts.total)}${files.length > 0 ? `, ${files.join(', ')}` : ''}`;
}

/**
 * Counts tool calls, UI actions and checks from the envelopes a run gets back, and prints a trace line
 * per call: one per step of a chain, none for a call refused before it started (it is reported, not counted).
 */
export class Tally {
  readonly counts = new RunCounts();
  readonly #runtime: Runtime;
  readonly #conversation: Conversation;

  constructor(runtime: Runtime, conversation: Conversation) {
    this.#runtime = runtime;
    this.#conversation = conversation;
  }

  account(envelope: Envelope, toolName: string): void {
    const checks = checkCounts(envelope);
    this.counts.checksPassed += checks.passed;
    this.counts.checksTotal += checks.total;
    if (isPending(envelope)) return;
    if (toolName === RUN_CHAIN && !isError(envelope)) {
      const fields = envelope.fields as ChainFields;
      for (const step of fields.steps) {
        const outcome = `${step.id}: ${step.ok ? 'ok' : 'failed'}${checksText(step.checks_passed, step.checks_total)}`;
        this.#call(step.tool, step.duration_ms, outcome);
      }
      if (fields.failed)
        this.#conversation.say(toolLine(undefined, `${fields.failed.id}: stopped, ${fields.failed.reason}`));
      return;
    }
    if (isError(envelope) && envelope.error.outcome === 'not_started') {
      this.#conversation.say(toolLine(envelope.duration_ms, describeOutcome(envelope)));
      return;
    }
    this.#call(toolName, envelope.duration_ms, describeOutcome(envelope));
  }

  #call(toolName: string, durationMs: number | undefined, outcome: string): void {
    this.counts.toolCalls += 1;
    const rung = this.#runtime.registry.get(toolName)?.rung;
    if (rung === 'ui' || rung === 'screen') this.counts.uiActions += 1;
    this.#conversation.say(toolLine(durationMs, outcome));
  }
}
