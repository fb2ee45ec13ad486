import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import { LiftError } from '../contract/errors.js';
import { timeoutSignal } from '../contract/timeout-signal.js';

/** What the loop sends to the model: the system text, the conversation so far and the tools on offer. */
export interface ModelRequest {
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
}

export interface ModelToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (parsed JSON, or the raw text when it was not JSON). */
  input: unknown;
}

/** One finished answer from one HTTP request. */
export interface AttemptAnswer {
  text: string;
  toolCalls: ModelToolCall[];
  /** Token counts as the provider reported them; undefined when it did not. */
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

/** Thrown (as the abort reason) when one attempt outlives its deadline, trickling or silent. */
export class AttemptTimeoutError extends LiftError {
  constructor(ms: number) {
    super('TIMEOUT', `The model did not finish answering within ${ms} milliseconds.`, {
      outcome: 'not_started',
    });
  }
}

/**
 * Sends one streamed request and reads it to the end. The deadline covers the whole answer, so a
 * stream that keeps sending a token a second is cut just like one that sends nothing.
 */
export async function attemptOnce(
  model: LanguageModel,
  request: ModelRequest,
  options: { deadlineMs: number; signal: AbortSignal; maxOutputTokens?: number | undefined },
): Promise<AttemptAnswer> {
  const deadline = timeoutSignal(options.deadlineMs, {
    follow: [options.signal],
    reason: () => new AttemptTimeoutError(options.deadlineMs),
  });
  const signal = deadline.signal;
  try {
    // `ai` loads on the first model call, not with Lift, so that loading Lift stays light.
    const { streamText } = await import('ai');
    const result = streamText({
      model,
      system: request.system,
      messages: request.messages,
      tools: request.tools,
      maxRetries: 0,
      abortSignal: signal,
      // Errors arrive as stream parts and are thrown below; the SDK's default handler would only log them.
      onError: () => {},
      ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
    });
    const answer: AttemptAnswer = {
      text: '',
      toolCalls: [],
      inputTokens: undefined,
      outputTokens: undefined,
    };
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') answer.text += part.text;
      else if (part.type === 'tool-call')
        answer.toolCalls.push({ id: part.toolCallId, name: part.toolName, input: part.input });
      else if (part.type === 'finish') {
        answer.inputTokens = part.totalUsage.inputTokens;
        answer.outputTokens = part.totalUsage.outputTokens;
      } else if (part.type === 'error') throw part.error;
      else if (part.type === 'abort') break;
    }
    if (signal.aborted) throw signal.reason;
    return answer;
  } catch (error) {
    // Whatever the SDK made of an abort, report why we aborted.
    if (signal.aborted) throw signal.reason;
    throw error;
  } finally {
    deadline.dispose();
  }
}
