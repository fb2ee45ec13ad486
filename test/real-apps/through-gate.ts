import type { ReplayResult } from '../../src/replay/engine.js';
import { lift } from './lift-cli.js';

// A replay through the CLI signs in, runs every step and checks the page: minutes under load.
const CALL_TIMEOUT_MS = 240_000;

interface Envelope {
  ok: boolean;
  error?: { code: string; message: string };
  pending?: { approval_id: string; gate: string; confirmation_phrase?: string };
  fields?: Record<string, unknown>;
}

async function envelope(args: string[], env: Record<string, string>): Promise<Envelope> {
  const answer = await lift([...args, '--json'], env, CALL_TIMEOUT_MS);
  try {
    return JSON.parse(answer.stdout) as Envelope;
  } catch {
    throw new Error(
      `lift ${args[0]} answered no envelope (exit ${answer.code}): ${answer.stderr.slice(-800)}`,
    );
  }
}

/**
 * A registered capability called as a person's agent would: `lift replay NAME` must come back
 * held at the signature gate with nothing done (`untouched` reads the application), and
 * `lift approve` with the confirmation phrase runs it once. Returns the approved run's answer
 * in the shape of a direct replay, for the operation's own check.
 */
export async function replayThroughGate(
  name: string,
  inputs: Record<string, string>,
  env: Record<string, string>,
  untouched: () => Promise<boolean>,
): Promise<Pick<ReplayResult, 'outcome' | 'outputs'>> {
  const held = await envelope(['replay', name, '--input', JSON.stringify(inputs)], env);
  // A held call is not ok: APPROVAL_PENDING, with what waits in `pending`.
  if (held.ok || held.error?.code !== 'APPROVAL_PENDING' || held.pending?.gate !== 'signature')
    throw new Error(`the gate did not hold the call for a signature: ${JSON.stringify(held)}`);
  if (!(await untouched())) throw new Error('the held call changed the application before approval');
  const { approval_id: id, confirmation_phrase: phrase } = held.pending;
  const approved = await envelope(['approve', id, ...(phrase ? ['--phrase', phrase] : [])], env);
  if (!approved.ok || !approved.fields)
    throw new Error(`the approved call failed: ${JSON.stringify(approved.error ?? approved)}`);
  const { outcome, ...outputs } = approved.fields;
  return { outcome: outcome as ReplayResult['outcome'], outputs: outputs as ReplayResult['outputs'] };
}
