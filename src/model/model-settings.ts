import type { SecretStore } from '../store/secrets.js';
import { ModelClient } from './model-client.js';
import { apiKeySecretName, createLanguageModel, parseModelSpec } from './model-provider.js';

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

/** The model client for a `provider:model` setting, its key read from the secret store (optional for local endpoints). */
export function modelClientFor(settings: ClientSettings, secrets: SecretStore): ModelClient {
  const spec = parseModelSpec(settings.model);
  const secret = apiKeySecretName(spec);
  const apiKey = secrets.has(secret) ? secrets.get(secret) : undefined;
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
