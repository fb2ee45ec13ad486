import type { ModelMessage, ToolResultPart } from 'ai';
import type { AnyTool } from '../contract/define-tool.js';
import { type Envelope, isError, isPending } from '../contract/envelope.js';
import { isLiftError } from '../contract/errors.js';
import type { RunEventType } from '../contract/events.js';
import { timeoutSignal } from '../contract/timeout-signal.js';
import type { ModelClient, ModelClientEvent } from '../model/model-client.js';
import { formatCount } from '../model/tokens.js';
import type { Runtime } from '../runtime/runtime.js';
import { type BudgetName, type Budgets, DEFAULT_BUDGETS, WorkClock } from './budgets.js';
import { type ChainFields, createRunChain, RUN_CHAIN } from './chain.js';
import { envelopeText } from './envelope-text.js';
import { type Conversation, type GateDecision, type HeldCall, settleHeld } from './gate.js';
import { unofferedTool } from './offered.js';
import { describeScores, Shortlist, type ShortlistChoice } from './shortlist.js';
import { Tally } from './tally.js';
import { TaskLedger, type TaskOutcome, type TaskRow } from './task-ledger.js';
import { schemaTokens, toToolSet } from './tool-schemas.js';
import { modelLine, toolLine, totalLine } from './trace.js';

export const SYSTEM_PROMPT = `You are Lift's agent. You act only through the tools offered; each returns a compact JSON envelope
(ok, summary, fields, files, checks; or an error with a code and a hint).
Plan the whole task at once. When several calls depend on each other, write them in ONE run_chain call and refer to
earlier results as "$ID.fields.NAME" or "$ID.files.KIND". Calls other people will see are held for a person's yes;
the runtime asks them, you do not. When the work is done, answer in a few sentences and say which checks passed.
Never ask for credentials: tools hold them.`;

export interface AgentOptions {
  runtime: Runtime;
  client: ModelClient;
  conversation: Conversation;
  budgets?: Partial<Budgets>;
  /** Off: every schema in every call (the ablation's baseline). Default on. */
  shortlist?: boolean;
  /** The `shortlist` section of lift.config. */
  shortlistConfig?: unknown;
  /** Offer run_chain (default true). */
  chain?: boolean;
  /** lift run --yes: stands for the first yes of review-gated calls. */
  autoApprove?: boolean;
  /** Files attached to the request (their kinds steer the shortlist). */
  attachments?: string[];
  system?: string;
  signal?: AbortSignal;
}

export interface AgentResult {
  outcome: TaskOutcome;
  answer: string;
  stoppedBy: BudgetName | undefined;
  runId: string;
  row: TaskRow;
  shortlist: ShortlistChoice;
  /** Held calls left for `lift approve`. */
  pending: HeldCall[];
}

class BudgetExceeded extends Error {
  constructor(readonly budget: BudgetName) {
    super(`budget: ${budget}`);
  }
}

/** The tools a run offers, with run_chain registered on the runtime so that invoke can run it. */
function offeredTools(
  runtime: Runtime,
  options: AgentOptions,
  request: string,
): { choice: ShortlistChoice; tools: AnyTool[] } {
  if (options.chain !== false && !runtime.registry.get(RUN_CHAIN)) {
    runtime.registry.add(createRunChain((name) => runtime.registry.get(name)));
  }
  const domain = runtime.registry.list().filter((tool) => tool.name !== RUN_CHAIN);
  const shortlist = new Shortlist(domain, options.shortlistConfig);
  const choice =
    options.shortlist === false ? shortlist.all() : shortlist.choose(request, options.attachments ?? []);
  const chain = options.chain !== false && choice.tools.length > 0 ? [runtime.registry.get(RUN_CHAIN)!] : [];
  return { choice, tools: [...choice.tools, ...chain] };
}

/** Held calls inside an envelope: a call held directly, or the step a chain stopped at. */
function heldIn(envelope: Envelope): HeldCall | undefined {
  if (isPending(envelope)) {
    const { approval_id, gate, preview, confirmation_phrase } = envelope.pending;
    return {
      approvalId: approval_id,
      tool: envelope.tool,
      gate,
      preview,
      confirmationPhrase: confirmation_phrase,
    };
  }
  if (envelope.tool !== RUN_CHAIN || isError(envelope)) return undefined;
  const held = (envelope.fields as ChainFields).held;
  if (!held) return undefined;
  return {
    approvalId: held.approval_id,
    tool: held.tool,
    gate: held.gate,
    preview: held.preview,
    confirmationPhrase: held.confirmation_phrase,
    step: held.id,
  };
}

/**
 * Runs one request: the model reads it with the shortlisted schemas and answers or calls tools; every
 * call goes through invoke; results return as envelope text; held calls are settled with the person;
 * budgets end the run cleanly. Writes model events to the run log and one row to the task ledger.
 */
export async function runAgent(request: string, options: AgentOptions): Promise<AgentResult> {
  const { runtime, client, conversation } = options;
  const budgets = { ...DEFAULT_BUDGETS, ...options.budgets };
  const { runs, secrets } = runtime.store;
  const clock = new WorkClock();
  const startedAt = new Date().toISOString();
  const tally = new Tally(runtime, conversation);
  const counters = tally.counts;
  const cleanRequest = secrets.scrub(request);
  const runId = runs.start('agent', cleanRequest);
  const log = (type: RunEventType, data: Record<string, unknown>) =>
    runs.append(runId, [{ t: new Date().toISOString(), type, ...data }]);

  const { choice, tools } = offeredTools(runtime, options, cleanRequest);
  const toolSet = toToolSet(tools);
  const perCallSchemaTokens = schemaTokens(tools);
  conversation.say(
    `shortlist  ${describeScores(choice.scores)}  -> ${choice.kind}: ${choice.groups.join(', ')}, ${tools.length} tools, ${formatCount(perCallSchemaTokens)} schema tokens`,
  );
  log('shortlist-chosen', {
    kind: choice.kind,
    groups: choice.groups,
    tools: tools.map((tool) => tool.name),
    schema_tokens: perCallSchemaTokens,
  });

  const messages: ModelMessage[] = [{ role: 'user', content: cleanRequest }];
  const pending: HeldCall[] = [];
  let outcome: TaskOutcome = 'failed';
  let answer = '';
  let stoppedBy: BudgetName | undefined;

  const remainingMs = () => budgets.seconds * 1000 - clock.elapsedMs();
  const workSignal = () =>
    timeoutSignal(Math.max(1, Math.ceil(remainingMs())), { follow: options.signal ? [options.signal] : [] });
  try {
    for (;;) {
      if (counters.modelCalls >= budgets.modelCalls) throw new BudgetExceeded('model calls');
      if (remainingMs() <= 0) throw new BudgetExceeded('seconds');
      const work = workSignal();
      const signal = work.signal;
      const events: ModelClientEvent[] = [];
      let reply: Awaited<ReturnType<ModelClient['call']>>;
      try {
        reply = await client.call(
          { system: options.system ?? SYSTEM_PROMPT, messages, tools: toolSet },
          { signal, onEvent: (event) => events.push(event) },
        );
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (signal.aborted) throw new BudgetExceeded('seconds');
        throw error;
      } finally {
        work.dispose();
        for (const { type, ...data } of events)
          log(type, { provider: client.provider, model: client.modelName, ...data });
      }
      counters.modelCalls += 1;
      counters.modelRequests += reply.requests;
      counters.inputTokens += reply.inputTokens;
      counters.outputTokens += reply.outputTokens;
      counters.schemaTokens += perCallSchemaTokens;
      log('model-called', {
        provider: client.provider,
        model: client.modelName,
        input_tokens: reply.inputTokens,
        output_tokens: reply.outputTokens,
        estimated: reply.estimated,
        schema_tokens: perCallSchemaTokens,
        duration_ms: reply.durationMs,
        requests: reply.requests,
        retries: reply.retries,
        hedged: reply.hedged,
        tool_calls: reply.toolCalls.map((call) => call.name),
      });
      // The model may echo a secret it read somewhere: the trace shows its arguments scrubbed.
      conversation.say(secrets.scrub(modelLine({ ...reply, calls: reply.toolCalls })));
      messages.push(reply.message);
      if (reply.toolCalls.length === 0) {
        outcome = 'answered';
        answer = reply.text;
        break;
      }

      const results: ToolResultPart[] = [];
      for (const call of reply.toolCalls) {
        // Only what this model call offered may run: the registry holds more than the shortlist.
        const refused = unofferedTool(call, toolSet, (name) => runtime.registry.get(name) !== undefined);
        if (refused) {
          log('tool-call-refused', { tool: call.name, reason: 'not offered' });
          conversation.say(toolLine(0, `${call.name}: refused, it was not offered`));
          results.push({
            type: 'tool-result',
            toolCallId: call.id,
            toolName: call.name,
            output: { type: 'error-text', value: secrets.scrub(`${refused} Nothing ran.`) },
          });
          continue;
        }
        const steps = call.name === RUN_CHAIN ? chainLength(call.input) : 1;
        if (counters.toolCalls + steps > budgets.steps) throw new BudgetExceeded('steps');
        if (remainingMs() <= 0) throw new BudgetExceeded('seconds');
        const callWork = workSignal();
        const envelope = await runtime
          .invoke(call.name, call.input, { runId, signal: callWork.signal })
          .finally(callWork.dispose);
        tally.account(envelope, call.name);
        let text = envelopeText(envelope);
        const held = heldIn(envelope);
        if (held) {
          conversation.say(toolLine(0, `${held.step ?? call.name}: held for a yes`));
          const decision = await clock.pausedWhile(() =>
            settleHeld(held, { runtime, conversation, autoApprove: options.autoApprove === true }),
          );
          if (decision.kind === 'ran') tally.account(decision.envelope, held.tool);
          if (decision.kind === 'pending') pending.push(held);
          else text += `\n${decisionNote(held, decision)}`;
        }
        results.push({
          type: 'tool-result',
          toolCallId: call.id,
          toolName: call.name,
          output: { type: 'text', value: secrets.scrub(text) },
        });
      }
      messages.push({ role: 'tool', content: results });
      if (pending.length > 0) {
        outcome = 'pending';
        answer = `Waiting for a person: ${pending.map((held) => `${held.tool} (lift approve ${held.approvalId})`).join(', ')}.`;
        break;
      }
    }
  } catch (error) {
    if (error instanceof BudgetExceeded) {
      stoppedBy = error.budget;
      outcome = 'budget';
      answer = budgetMessage(error.budget, budgets);
    } else if (isLiftError(error)) {
      outcome = 'failed';
      answer = `${error.code}: ${secrets.scrub(error.message)}`;
    } else throw error;
  }

  const seconds = Math.round(clock.elapsedMs()) / 1000;
  conversation.say(totalLine({ seconds, ...counters }));
  const row = new TaskLedger(runtime.store.db).add({
    runId,
    request: cleanRequest,
    provider: client.provider,
    model: client.modelName,
    ...counters,
    seconds,
    outcome,
    stoppedBy,
    startedAt,
  });
  log('agent-end', { outcome, ...(stoppedBy ? { stopped_by: stoppedBy } : {}) });
  runs.end(runId, outcome === 'pending' ? 'held' : outcome === 'answered');
  return { outcome, answer: secrets.scrub(answer), stoppedBy, runId, row, shortlist: choice, pending };
}

/** What the model reads about a held call once the person has answered. */
function decisionNote(held: HeldCall, decision: Exclude<GateDecision, { kind: 'pending' }>): string {
  switch (decision.kind) {
    case 'ran':
      return `A person said yes and ${held.step ? `step '${held.step}'` : 'the call'} ran exactly once: ${envelopeText(decision.envelope)}`;
    case 'denied':
      return `A person said no: ${held.tool} was dropped and did not run. Do not call it again unless asked.`;
    case 'change':
      return `A person asked for a change before ${held.tool} runs: "${decision.request}". The held call was dropped; make a new call with the change.`;
  }
}

function chainLength(input: unknown): number {
  const steps = (input as { steps?: unknown } | undefined)?.steps;
  return Array.isArray(steps) ? Math.max(1, steps.length) : 1;
}

function budgetMessage(budget: BudgetName, budgets: Budgets): string {
  const limit =
    budget === 'steps'
      ? `${budgets.steps} steps`
      : budget === 'model calls'
        ? `${budgets.modelCalls} model calls`
        : `${budgets.seconds} s`;
  return `Stopped: the ${budget} budget (${limit}) ran out before the task was done.`;
}
