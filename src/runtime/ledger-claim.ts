import type { AnyTool } from '../contract/define-tool.js';
import type { Envelope, SuccessEnvelope } from '../contract/envelope.js';
import { LiftError } from '../contract/errors.js';
import { type Awaitable, andThen } from '../store/awaitable.js';
import type { LedgerClaim } from '../store/ledger.js';
import type { Call } from './call.js';

/**
 * Ledger claim: a write with a request id claims it before it may run. A repeat of a done
 * call answers with the first result; the same id with other input, a call still running
 * or one that ended unknown answer with their error. Reads and calls without an id pass.
 */
export function claimLedger(call: Call, tool: AnyTool): Awaitable<Envelope | undefined> {
  const requestId = call.requestId;
  if (tool.effect.class === 'read' || requestId === undefined) return undefined;
  const { ledger } = call.runtime.store;
  const claim = call.options.settleFirst
    ? ledger.reclaim(tool.name, requestId, call.inputHash())
    : ledger.claim(tool.name, requestId, call.inputHash());
  return andThen(claim, (answer) => answerClaim(call, tool, requestId, answer));
}

function answerClaim(
  call: Call,
  tool: AnyTool,
  requestId: string,
  claim: LedgerClaim,
): Awaitable<Envelope | undefined> {
  switch (claim.kind) {
    case 'claimed':
      call.claimed = true;
      call.event('ledger-claimed');
      return undefined;
    case 'reclaimed':
      return settleFirst(call, tool, requestId);
    case 'done': {
      const first = JSON.parse(claim.envelope) as SuccessEnvelope;
      call.event('ledger-answered');
      return call.finish({
        ...first,
        effect: 'existing',
        run_id: call.runId,
        summary: `Already done: ${first.summary}`,
      });
    }
    case 'reused':
      return call.fail(reused(requestId));
    case 'in_flight':
      return call.fail(
        new LiftError('IN_FLIGHT', `A call with request_id '${requestId}' is still running.`, {
          outcome: 'unknown',
        }),
      );
    case 'unknown':
      return call.fail(
        new LiftError(
          'OUTCOME_UNKNOWN',
          `An earlier call with request_id '${requestId}' ended without a known outcome.`,
          { outcome: 'unknown', ...(tool.timeout.settle ? { settle: tool.timeout.settle } : {}) },
        ),
      );
  }
}

/**
 * A call that takes over from a run that died mid-call holds the claim now; its settle read
 * runs before anything is sent. A tool without one cannot know whether the write landed.
 */
function settleFirst(call: Call, tool: AnyTool, requestId: string): Awaitable<Envelope | undefined> {
  call.claimed = true;
  call.event('ledger-reclaimed');
  if (tool.settleRead) {
    call.settling = true;
    return undefined;
  }
  return andThen(call.releaseClaim('unknown'), () =>
    call.fail(
      new LiftError(
        'OUTCOME_UNKNOWN',
        `The call with request_id '${requestId}' was cut off mid-call, and ${tool.name} has no settle read that could tell whether it landed.`,
        { outcome: 'unknown', ...(tool.timeout.settle ? { settle: tool.timeout.settle } : {}) },
      ),
    ),
  );
}

function reused(requestId: string): LiftError {
  return new LiftError(
    'REQUEST_ID_REUSED',
    `request_id '${requestId}' was already used with different input.`,
    {
      outcome: 'not_started',
    },
  );
}
