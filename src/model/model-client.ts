import type { LanguageModel, ModelMessage } from 'ai';
import { LiftError } from '../contract/errors.js';
import { type AttemptAnswer, attemptOnce, type ModelRequest } from './attempt.js';
import { hedged } from './hedge.js';
import {
  type AttemptFailure,
  classifyFailure,
  DEFAULT_RETRY,
  delayBefore,
  type RetryPolicy,
  sleep,
} from './retry.js';
import { estimateTokens } from './tokens.js';

export interface ModelClientOptions {
  model: LanguageModel;
  /** For events and the ledger: `openai`, `anthropic`, `vllm`, ... and the model's name. */
  provider: string;
  modelName: string;
  /** Longest one request may take, first byte to last (default 60 s). */
  attemptDeadlineMs?: number;
  /** Send an identical backup request after this long without an answer; undefined turns hedging off. */
  hedgeMs?: number | undefined;
  retry?: Partial<RetryPolicy>;
  maxOutputTokens?: number;
  /** Jitter source, for reproducible benchmarks. */
  random?: () => number;
}

/** Something that happened on the way to an answer, for the run log (types start with `model`). */
export type ModelClientEvent =
  | { type: 'model-retry'; attempt: number; reason: string; status?: number; wait_ms: number }
  | { type: 'model-hedge'; attempt: number; after_ms: number };

/** One logical model call: the answer and what it took to get it. */
export interface ModelAnswer extends AttemptAnswer {
  inputTokens: number;
  outputTokens: number;
  /** True when the provider did not report usage and the counts are estimates. */
  estimated: boolean;
  durationMs: number;
  /** HTTP requests sent for this call: retries and hedges included. */
  requests: number;
  retries: number;
  hedged: boolean;
  /** The assistant message to append to the conversation. */
  message: ModelMessage;
}

/**
 * Calls the model with capped, jittered retries on 408/409/429/5xx (honouring Retry-After), a deadline
 * per attempt, and hedging: after `hedgeMs` an identical second request races the first.
 */
export class ModelClient {
  readonly provider: string;
  readonly modelName: string;
  readonly #options: ModelClientOptions;
  readonly #retry: RetryPolicy;

  constructor(options: ModelClientOptions) {
    this.#options = options;
    this.provider = options.provider;
    this.modelName = options.modelName;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  async call(
    request: ModelRequest,
    options: { signal?: AbortSignal; onEvent?: (event: ModelClientEvent) => void } = {},
  ): Promise<ModelAnswer> {
    const signal = options.signal ?? new AbortController().signal;
    const started = performance.now();
    const deadlineMs = this.#options.attemptDeadlineMs ?? 60_000;
    let requests = 0;
    let hedgedAny = false;
    for (let attempt = 1; ; attempt++) {
      let failure: AttemptFailure;
      try {
        const outcome = await hedged(
          (attemptSignal) => {
            requests += 1;
            return attemptOnce(this.#options.model, request, {
              deadlineMs,
              signal: attemptSignal,
              maxOutputTokens: this.#options.maxOutputTokens,
            });
          },
          {
            hedgeMs: this.#options.hedgeMs,
            signal,
            onHedge: () => {
              hedgedAny = true;
              options.onEvent?.({ type: 'model-hedge', attempt, after_ms: this.#options.hedgeMs ?? 0 });
            },
          },
        );
        return this.#answer(request, outcome.value, {
          durationMs: performance.now() - started,
          requests,
          retries: attempt - 1,
          hedged: hedgedAny,
        });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        failure =
          error instanceof LiftError && error.code === 'TIMEOUT'
            ? timeoutFailure(error)
            : classifyFailure(error);
        if (!failure.retryable || attempt >= this.#retry.maxAttempts)
          throw finalError(failure, attempt, error);
      }
      const wait = delayBefore(attempt, failure, this.#retry, this.#options.random);
      options.onEvent?.({
        type: 'model-retry',
        attempt,
        reason: failure.reason,
        ...(failure.status !== undefined ? { status: failure.status } : {}),
        wait_ms: wait,
      });
      await sleep(wait, signal);
    }
  }

  #answer(
    request: ModelRequest,
    raw: AttemptAnswer,
    counts: { durationMs: number; requests: number; retries: number; hedged: boolean },
  ): ModelAnswer {
    const estimated = raw.inputTokens === undefined || raw.outputTokens === undefined;
    const inputTokens =
      raw.inputTokens ?? estimateTokens(JSON.stringify([request.system, request.messages, request.tools]));
    const outputTokens = raw.outputTokens ?? estimateTokens(raw.text + JSON.stringify(raw.toolCalls));
    const content = [
      ...(raw.text ? [{ type: 'text' as const, text: raw.text }] : []),
      ...raw.toolCalls.map((call) => ({
        type: 'tool-call' as const,
        toolCallId: call.id,
        toolName: call.name,
        input: call.input,
      })),
    ];
    return {
      ...raw,
      inputTokens,
      outputTokens,
      estimated,
      ...counts,
      durationMs: Math.round(counts.durationMs),
      message: { role: 'assistant', content },
    };
  }
}

function timeoutFailure(error: LiftError): AttemptFailure {
  return { retryable: true, status: undefined, retryAfterMs: undefined, reason: error.message };
}

/** The error a model call ends with once retrying is over, coded like any other Lift failure. */
function finalError(failure: AttemptFailure, attempts: number, cause: unknown): LiftError {
  const tries = `after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
  const status = failure.status;
  if (status === 401 || status === 403) {
    return new LiftError('AUTH_REQUIRED', `The model provider refused the key (HTTP ${status}).`, {
      hint: 'Store a valid key with lift secrets set PROVIDER_api_key.',
      outcome: 'not_started',
      cause,
    });
  }
  if (status === 429) {
    return new LiftError('RATE_LIMITED', `The model provider kept rate-limiting ${tries}.`, {
      outcome: 'not_started',
      cause,
    });
  }
  if (cause instanceof LiftError && cause.code === 'TIMEOUT') {
    return new LiftError('TIMEOUT', `${cause.message} (${tries})`, { outcome: 'not_started', cause });
  }
  if (status !== undefined && status < 500 && status !== 408 && status !== 409) {
    return new LiftError('BAD_INPUT', `The model provider rejected the request (HTTP ${status}).`, {
      hint: 'Check LIFT_MODEL and LIFT_BASE_URL; the run log has the provider message.',
      outcome: 'not_started',
      cause,
    });
  }
  return new LiftError('UPSTREAM_ERROR', `The model provider failed ${tries}: ${failure.reason}.`, {
    outcome: 'not_started',
    cause,
  });
}
