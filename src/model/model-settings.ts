import type { SecretStore } from '../store/secrets.js';
import { ModelClient } from './model-client.js';
import { createLanguageModel } from './model-provider.js';
import { apiKeySecretName, type ModelSpec, parseModelSpec } from './model-spec.js';

export interface ClientSettings {
  /** `provider:model`, from LIFT_MODEL. */
  model: string;
  /** From LIFT_BASE_URL; required for OpenAI-compatible providers. */
  baseURL?: string | undefined;
  /** Send a backup request after this many seconds without an answer (0 turns hedging off). */
  hedgeSeconds?: number | undefined;
  /** Longest one request may take, in seconds. */
  attemptSeconds?: number | undefined;
}

/** The variable each provider's own SDK and tools read their key from. */
export const KEY_VARIABLES: Readonly<Record<string, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

/**
 * The provider's key: the secret store first (`openai_api_key`, or LIFT_SECRET_OPENAI_API_KEY),
 * then the conventional variable of the environment the edge passed in. A key from the
 * environment is only scrubbed, never stored as a secret a tool could ask for, so it reaches
 * no tool, run log or envelope.
 */
export function modelKey(
  spec: ModelSpec,
  secrets: SecretStore,
  env: Record<string, string | undefined> = {},
): string | undefined {
  const secret = apiKeySecretName(spec);
  if (secrets.has(secret)) return secrets.get(secret);
  const variable = KEY_VARIABLES[spec.kind];
  const value = variable ? env[variable]?.trim() : undefined;
  if (!variable || !value) return undefined;
  secrets.scrubOnly(variable.toLowerCase(), value);
  return value;
}

/** The model client for a `provider:model` setting, its key from the secret store or the environment (optional for local endpoints). */
export function modelClientFor(
  settings: ClientSettings,
  secrets: SecretStore,
  env: Record<string, string | undefined> = {},
): ModelClient {
  const spec = parseModelSpec(settings.model);
  const apiKey = modelKey(spec, secrets, env);
  const model = createLanguageModel({ spec, baseURL: settings.baseURL, apiKey });
  const hedge = settings.hedgeSeconds ?? 15;
  return new ModelClient({
    model,
    provider: spec.provider,
    modelName: spec.model,
    hedgeMs: hedge > 0 ? hedge * 1000 : undefined,
    attemptDeadlineMs: (settings.attemptSeconds ?? 60) * 1000,
    maxOutputTokens: 8192,
  });
}
