import type { Envelope } from '../contract/envelope.js';
import type { Runtime } from '../runtime/runtime.js';

/** Who the run talks to: the person at the terminal, or a test's scripted replies. */
export interface Conversation {
  /** Shows a line (trace, preview, answer). */
  say(text: string): void;
  /** Asks and waits for a reply; undefined when nobody can answer (a non-interactive run). */
  ask(question: string): Promise<string | undefined>;
}

/** A call the gate holds, whether called directly or as a step of a chain. */
export interface HeldCall {
  approvalId: string;
  tool: string;
  gate: 'review' | 'signature';
  preview: string;
  confirmationPhrase: string | undefined;
  /** The chain step id, when it was held inside run_chain. */
  step?: string;
}

export type GateDecision =
  | { kind: 'ran'; envelope: Envelope }
  | { kind: 'denied' }
  | { kind: 'change'; request: string }
  | { kind: 'pending' };

const YES = /^(?:y|yes|yep|ok|okay|sure|go|go ahead|do it|approve|approved|confirm)[.! ]*$/i;
const NO = /^(?:n|no|nope|cancel|stop|deny|drop it|don'?t)[.! ]*$/i;

/**
 * Settles a held call with the person: the preview is shown, `yes` runs it exactly once (through
 * runtime.approve), `no` drops it (runtime.deny), and any other reply drops it and goes back to the
 * model as a change request. An irreversible call (signature gate) needs a second, separate yes.
 * `autoApprove` (lift run --yes) stands for the first yes of review-gated calls only.
 */
export async function settleHeld(
  held: HeldCall,
  options: { runtime: Runtime; conversation: Conversation; autoApprove: boolean; by?: string },
): Promise<GateDecision> {
  const { runtime, conversation } = options;
  const by = options.by ?? 'person';
  const label = held.step ? `${held.step} (${held.tool})` : held.tool;
  conversation.say(
    `held   ${label} for ${held.gate === 'signature' ? 'a signature' : 'review'}: ${held.preview}`,
  );
  let reply: string | undefined;
  if (held.gate === 'review' && options.autoApprove) reply = 'yes';
  else reply = await conversation.ask(`Say 'yes' to go ahead, 'no' to drop it, or tell me what to change.`);
  if (reply === undefined) return leavePending(held, conversation);
  const answer = reply.trim();
  if (NO.test(answer)) {
    await runtime.deny(held.approvalId, by);
    return { kind: 'denied' };
  }
  if (!YES.test(answer)) {
    await runtime.deny(held.approvalId, `${by} (asked for a change)`);
    return { kind: 'change', request: runtime.store.secrets.scrub(answer) };
  }
  if (held.gate === 'signature') {
    const second = await conversation.ask(`${label} cannot be undone. Say 'yes' again to run it.`);
    if (second === undefined) return leavePending(held, conversation);
    if (!YES.test(second.trim())) {
      await runtime.deny(held.approvalId, by);
      return NO.test(second.trim())
        ? { kind: 'denied' }
        : { kind: 'change', request: runtime.store.secrets.scrub(second.trim()) };
    }
  }
  const envelope = await runtime.approve(held.approvalId, {
    by,
    ...(held.confirmationPhrase ? { phrase: held.confirmationPhrase } : {}),
  });
  return { kind: 'ran', envelope };
}

function leavePending(held: HeldCall, conversation: Conversation): GateDecision {
  const phrase = held.confirmationPhrase ? ` --phrase "${held.confirmationPhrase}"` : '';
  conversation.say(
    `left pending: lift approve ${held.approvalId}${phrase}   (or lift deny ${held.approvalId})`,
  );
  return { kind: 'pending' };
}
