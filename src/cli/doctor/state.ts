import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CapabilityStore } from '../../capability/store.js';
import { LiftError } from '../../contract/errors.js';
import { apiKeySecretName, parseModelSpec } from '../../model/model-spec.js';
import type { Registration } from '../../replay/registrations.js';
import type { Runtime } from '../../runtime/runtime.js';
import { HomeNotWritable, prepareHome } from '../../store/home.js';
import { TOKEN_SECRET, weakTokenProblem } from '../serve-token.js';
import type { Check } from './check.js';

/** LIFT_HOME can be created and written: a file is written and removed again. */
export function homeCheck(home: string): Check {
  try {
    prepareHome(home);
    const probe = join(home, `.doctor-${process.pid}`);
    writeFileSync(probe, 'ok');
    rmSync(probe);
    return { name: 'LIFT_HOME', status: 'ok', detail: `${home} is writable` };
  } catch (error) {
    const code =
      error instanceof HomeNotWritable ? error.code : ((error as NodeJS.ErrnoException).code ?? 'error');
    return {
      name: 'LIFT_HOME',
      status: 'fail',
      detail: `${home} is not writable (${code})`,
      fix: 'set LIFT_HOME to a folder you can write, e.g. export LIFT_HOME=$HOME/.lift',
    };
  }
}

/** An HTTP answer of any status from the base URL's model list: the server is there. */
async function reach(baseUrl: string): Promise<string | undefined> {
  try {
    const response = await fetch(`${baseUrl.replace(/\/$/, '')}/models`, {
      signal: AbortSignal.timeout(5000),
    });
    await response.body?.cancel();
    return `answered HTTP ${response.status}`;
  } catch {
    return undefined;
  }
}

/** LIFT_MODEL parses, its key is stored (never shown), and LIFT_BASE_URL answers when set. */
export async function modelChecks(
  env: Record<string, string | undefined>,
  runtime: Runtime,
): Promise<Check[]> {
  const setting = env.LIFT_MODEL;
  if (!setting)
    return [
      {
        name: 'model',
        status: 'warn',
        detail: 'LIFT_MODEL is not set; lift run and discovery need a model',
        fix: 'export LIFT_MODEL=openai:gpt-5-mini (or vllm:NAME with LIFT_BASE_URL=http://127.0.0.1:8000/v1)',
      },
    ];
  let spec: ReturnType<typeof parseModelSpec>;
  try {
    spec = parseModelSpec(setting);
  } catch (error) {
    const hint = error instanceof LiftError ? error.hint : undefined;
    return [
      {
        name: 'model',
        status: 'fail',
        detail: `LIFT_MODEL='${setting}' is not provider:model`,
        ...(hint ? { fix: hint } : {}),
      },
    ];
  }
  const checks: Check[] = [
    { name: 'model', status: 'ok', detail: `${spec.provider}:${spec.model} (${spec.kind})` },
  ];
  const secret = apiKeySecretName(spec);
  const hasKey = runtime.store.secrets.has(secret);
  if (!hasKey)
    checks.push({
      name: 'model key',
      status: spec.kind === 'openai-compatible' ? 'ok' : 'fail',
      detail:
        spec.kind === 'openai-compatible'
          ? `no ${secret} stored (a local server may need none)`
          : `no ${secret} stored`,
      fix: `lift secrets set ${secret}   (the key on standard input)`,
    });
  else checks.push({ name: 'model key', status: 'ok', detail: `${secret} is stored` });
  const baseUrl = env.LIFT_BASE_URL;
  if (!baseUrl) {
    if (spec.kind === 'openai-compatible')
      checks.push({
        name: 'model base URL',
        status: 'fail',
        detail: `LIFT_BASE_URL is not set; ${spec.provider} is an OpenAI-compatible server`,
        fix: 'export LIFT_BASE_URL=http://127.0.0.1:8000/v1 (vLLM) or http://127.0.0.1:11434/v1 (Ollama)',
      });
    return checks;
  }
  const answer = await reach(baseUrl);
  checks.push(
    answer
      ? { name: 'model base URL', status: 'ok', detail: `${baseUrl} ${answer}` }
      : {
          name: 'model base URL',
          status: 'fail',
          detail: `${baseUrl} did not answer within 5 s`,
          fix: 'start the model server, or correct LIFT_BASE_URL',
        },
  );
  return checks;
}

export function serveTokenCheck(runtime: Runtime): Check {
  const fix = `lift secrets generate ${TOKEN_SECRET} --out FILE`;
  if (!runtime.store.secrets.has(TOKEN_SECRET))
    return {
      name: 'serve token',
      status: 'warn',
      detail: `no ${TOKEN_SECRET}; lift serve --http and lift console refuse to start without one (stdio needs none)`,
      fix,
    };
  const weak = weakTokenProblem(runtime.store.secrets.get(TOKEN_SECRET));
  return weak
    ? {
        name: 'serve token',
        status: 'warn',
        detail: `${weak} lift serve --http and lift console refuse to start with it.`,
        fix,
      }
    : { name: 'serve token', status: 'ok', detail: `${TOKEN_SECRET} is stored; lift serve --http can start` };
}

/** Every registered capability's file still hashes to its revision. */
export async function capabilityChecks(runtime: Runtime): Promise<Check[]> {
  const store = new CapabilityStore(runtime.store.capabilities);
  const registered = await runtime.store.registrations.list();
  if (registered.length === 0) return [{ name: 'capabilities', status: 'ok', detail: 'none registered' }];
  const checks: Check[] = [];
  for (const entry of registered) checks.push(await capabilityCheck(store, entry));
  return checks;
}

async function capabilityCheck(store: CapabilityStore, entry: Registration): Promise<Check> {
  const name = `capability ${entry.name}`;
  try {
    await store.load(entry.revision);
    return { name, status: 'ok', detail: `revision ${entry.revision.slice(0, 12)} verified` };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      name,
      status: 'fail',
      detail: message,
      fix: `lift capabilities add FILE --effect CLASS   (store it again), or lift capabilities show ${entry.name}`,
    };
  }
}
