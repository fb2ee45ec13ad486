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
