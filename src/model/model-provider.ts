import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { LiftError } from '../contract/errors.js';
import { apiKeySecretName, type ModelSpec } from './model-spec.js';

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
