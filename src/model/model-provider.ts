import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { LiftError } from '../contract/errors.js';

/** The provider families Lift speaks to. Any other prefix (vllm, ollama, lmstudio, ...) is OpenAI-compatible. */
export type ProviderKind = 'openai' | 'anthropic' | 'openai-compatible';

export interface ModelSpec {
  /** The prefix as written (`openai`, `anthropic`, `vllm`, ...). */
  provider: string;
  kind: ProviderKind;
  model: string;
}

/** Reads `provider:model` (for example `openai:gpt-5-mini`, `anthropic:claude-sonnet-4-5`, `ollama:qwen3:8b`). */
export function parseModelSpec(text: string): ModelSpec {
  const colon = text.indexOf(':');
  const provider = colon > 0 ? text.slice(0, colon).trim().toLowerCase() : '';
  const model = colon > 0 ? text.slice(colon + 1).trim() : '';
  if (!provider || !model) {
    throw new LiftError('BAD_INPUT', `The model '${text}' is not written as provider:model.`, {
      hint: 'Set LIFT_MODEL like openai:gpt-5-mini, anthropic:claude-sonnet-4-5 or vllm:qwen3-8b (with LIFT_BASE_URL).',
    });
  }
  const kind: ProviderKind =
    provider === 'openai' || provider === 'anthropic' ? provider : 'openai-compatible';
  return { provider, kind, model };
}

/** The secret that holds the key for a provider: `openai_api_key`, `anthropic_api_key`, `vllm_api_key`, ... */
export function apiKeySecretName(spec: ModelSpec): string {
  return `${spec.provider.replace(/[^a-z0-9]+/g, '_')}_api_key`;
}

export interface ProviderOptions {
  spec: ModelSpec;
  /** The endpoint, e.g. http://127.0.0.1:8000/v1. Required for OpenAI-compatible providers. */
  baseURL?: string | undefined;
  /** The key, read from the secret store by the caller. Optional only for OpenAI-compatible endpoints. */
  apiKey?: string | undefined;
}

/**
 * The language model for a spec, through the Vercel AI SDK. OpenAI goes through Chat Completions
 * (the shape every compatible endpoint also speaks); keys are always passed in, never read from
 * the environment by the SDK.
 */
export function createLanguageModel({ spec, baseURL, apiKey }: ProviderOptions): LanguageModel {
  const secret = apiKeySecretName(spec);
  const needKey = () => {
    if (apiKey) return apiKey;
    throw new LiftError('AUTH_REQUIRED', `No API key is stored for ${spec.provider}.`, {
      hint: `A person stores it once: lift secrets set ${secret} (or LIFT_SECRET_${secret.toUpperCase()}${spec.kind === 'openai-compatible' ? '' : `, or ${spec.kind.toUpperCase()}_API_KEY`}).`,
      outcome: 'not_started',
    });
  };
  switch (spec.kind) {
    case 'openai':
      return createOpenAI({ apiKey: needKey(), ...(baseURL ? { baseURL } : {}) }).chat(spec.model);
    case 'anthropic':
      return createAnthropic({ apiKey: needKey(), ...(baseURL ? { baseURL } : {}) })(spec.model);
    case 'openai-compatible': {
      if (!baseURL) {
        throw new LiftError('BAD_INPUT', `The provider '${spec.provider}' needs a base URL.`, {
          hint: 'Set LIFT_BASE_URL to the endpoint, e.g. http://127.0.0.1:8000/v1 for vLLM or http://127.0.0.1:11434/v1 for Ollama.',
        });
      }
      return createOpenAICompatible({
        name: spec.provider,
        baseURL,
        includeUsage: true,
        ...(apiKey ? { apiKey } : {}),
      }).chatModel(spec.model);
    }
  }
}
