import type { ClientCapabilities, ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import type { Envelope, ErrorEnvelope, PendingEnvelope } from '../contract/envelope.js';
import { errorAdvice, isLiftError, LiftError } from '../contract/errors.js';
import { awaitAnswer } from '../runtime/await-answer.js';
import type { Runtime } from '../runtime/runtime.js';

/** How the server sends one elicitation request within the tool call it belongs to. */
export type Elicit = (
  params: ElicitRequestFormParams,
  signal: AbortSignal,
) => Promise<{ action: string; content?: Record<string, unknown> | undefined }>;

export function canElicit(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  // An empty object is the form mode of older clients; newer ones say `form` explicitly.
  return Object.keys(elicitation).length === 0 || elicitation.form !== undefined;
}

/**
 * Whether the client may answer this held call by asking its person. The client is the agent's
 * own, and what it shows as "the person" is its to decide: a review it may answer, a signature
 * only where the operator allowed it for the tool (lift.config `elicitation.signature`). Any
 * other signature waits for the console or lift approve.
 */
export function elicitationMayAnswer(pending: PendingEnvelope, signatureTools: readonly string[]): boolean {
  if (pending.pending.gate !== 'signature') return true;
  return signatureTools.includes('*') || signatureTools.includes(pending.tool);
}

/** Instead of a yes or a no, the person may say what to change: the call is dropped and the words go back. */
const CHANGE = {
  type: 'string',
  title: 'Or say what to change instead',
  description: 'Leave empty to decide on the call as shown.',
} as const;

function requestFor(pending: PendingEnvelope): ElicitRequestFormParams {
  const { gate, preview, input_digest, confirmation_phrase } = pending.pending;
  const digest = input_digest ? `\nInput digest: ${input_digest}` : '';
  const message = `${pending.tool} is held for ${gate}. It will do exactly this:\n${preview}${digest}`;
  if (gate === 'signature' && confirmation_phrase) {
    return {
      mode: 'form',
      message: `${message}\nTo run it, type the confirmation phrase: ${confirmation_phrase}`,
      requestedSchema: {
        type: 'object',
        properties: {
          phrase: { type: 'string', title: 'Confirmation phrase', description: confirmation_phrase },
          change: CHANGE,
        },
      },
    };
  }
  return {
    mode: 'form',
    message,
    requestedSchema: {
      type: 'object',
      properties: {
        approve: { type: 'boolean', title: 'Run this call now', default: false },
        change: CHANGE,
      },
      required: ['approve'],
    },
  };
}

/** The change the person asked for, if they wrote one. */
function changeIn(content: Record<string, unknown>): string | undefined {
  const change = typeof content.change === 'string' ? content.change.trim() : '';
  return change.length > 0 ? change.slice(0, 2_000) : undefined;
}

function errorFrom(pending: PendingEnvelope, error: LiftError): ErrorEnvelope {
  return {
    ok: false,
    tool: pending.tool,
    error: {
      code: error.code,
      message: error.message,
      ...errorAdvice(error.code, error),
    },
    run_id: pending.run_id,
    ...(pending.request_id ? { request_id: pending.request_id } : {}),
  };
}

/**
 * Asks the person at the client whether a held call may run. Yes runs it once through
 * runtime.approve (so `lift approve` racing it cannot run it twice); no denies it; a
 * dismissed question leaves the call held for `lift approve`.
 */
export async function askApproval(
  runtime: Runtime,
  pending: PendingEnvelope,
  elicit: Elicit,
  signal: AbortSignal,
): Promise<Envelope> {
  const id = pending.pending.approval_id;
  // A person may answer elsewhere first (the console, lift approve): then that answer is returned.
  const elsewhere = new AbortController();
  const answeredElsewhere = awaitAnswer(runtime, pending, { signal: elsewhere.signal });
  let answer: Awaited<ReturnType<Elicit>>;
  try {
    const first = await Promise.race([
      elicit(requestFor(pending), AbortSignal.any([signal, elsewhere.signal])),
      answeredElsewhere,
    ]);
    if ('ok' in first) return first;
    answer = first;
  } catch {
    // The client could not ask (no person, a timeout): the call stays held for `lift approve`.
    return pending;
  } finally {
    elsewhere.abort();
  }
  const content = answer.content ?? {};
  const change = answer.action === 'accept' ? changeIn(content) : undefined;
  if (change !== undefined && (await runtime.deny(id, 'mcp client (asked for a change)'))) {
    const words = runtime.store.secrets.scrub(change);
    return errorFrom(
      pending,
      new LiftError(
        'APPROVAL_DENIED',
        `The person asked for a change before ${pending.tool} runs: "${words}". The held call was dropped (approval ${id}).`,
        { hint: 'Make the change, then make a new call; the person is asked again.' },
      ),
    );
  }
  const declined = answer.action === 'decline' || (answer.action === 'accept' && content.approve === false);
  if (declined && (await runtime.deny(id, 'mcp client'))) {
    return errorFrom(
      pending,
      new LiftError('APPROVAL_DENIED', `The person declined ${pending.tool} (approval ${id}).`),
    );
  }
  if (answer.action !== 'accept' && !declined) return pending;
  try {
    // Also reached when a decline lost the race to `lift approve`: this returns that execution.
    const phrase = typeof content.phrase === 'string' ? content.phrase : undefined;
    return await runtime.approve(id, { by: 'mcp client', ...(phrase !== undefined ? { phrase } : {}) });
  } catch (error) {
    if (!isLiftError(error)) throw error;
    return runtime.store.secrets.scrubValue(errorFrom(pending, error));
  }
}
