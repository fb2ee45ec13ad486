import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { LiftError } from '../contract/errors.js';
import type { Approval } from '../store/approvals.js';
import type { Awaitable } from '../store/awaitable.js';

/** Where a client reads one approval as a resource (the same fields as the tool). */
export const APPROVAL_URI_TEMPLATE = 'lift://approvals/{approval_id}';
const APPROVAL_ID = /^ap_[0-9a-f]{12}$/;

export function approvalUri(approvalId: string): string {
  return `lift://approvals/${approvalId}`;
}

/** The approval id a `lift://approvals/ID` URI names, or undefined for any other URI. */
export function approvalIdOf(uri: string): string | undefined {
  const match = /^lift:\/\/approvals\/(ap_[0-9a-f]{12})$/.exec(uri);
  return match?.[1];
}

const NEXT: Record<Approval['state'], string> = {
  pending:
    'Not run yet: waiting for a person to approve or deny it (in this client when asked, or with lift approve). Ask again later; do not repeat the call.',
  approved: 'A person approved it; it is running now. Ask again in a moment for its result.',
  executed: 'It ran once after approval; `result` is the envelope of that run.',
  denied:
    'A person denied it; it will not run. Change the request and make a new call if the task still needs it.',
};

export const ApprovalStatusSchema = z.strictObject({
  approval_id: z.string().describe('The id asked about.'),
  state: z.enum(['pending', 'approved', 'executed', 'denied']).describe('approved: running now.'),
  tool: z.string().describe('The tool held.'),
  gate: z.enum(['review', 'signature']).describe('signature: the person also typed a phrase.'),
  preview: z.string().describe('What the person was shown.'),
  held_at: z.string().describe('ISO 8601 time it was held.'),
  decided_at: z.string().optional().describe('ISO 8601 time of the decision.'),
  decided_by: z.string().optional().describe('Who decided.'),
  next: z.string().describe('What to do now.'),
  result: z.record(z.string(), z.unknown()).optional().describe('The envelope of the run, once executed.'),
});
export type ApprovalStatus = z.infer<typeof ApprovalStatusSchema>;

/** One held call's state as a client reads it. The input and phrase stay out: the person sees those. */
export function approvalStatus(approval: Approval): ApprovalStatus {
  return {
    approval_id: approval.id,
    state: approval.state,
    tool: approval.tool,
    gate: approval.gate,
    preview: approval.preview,
    held_at: approval.createdAt,
    ...(approval.decidedAt ? { decided_at: approval.decidedAt } : {}),
    ...(approval.decidedBy ? { decided_by: approval.decidedBy } : {}),
    next: NEXT[approval.state],
    ...(approval.state === 'executed' && approval.envelope
      ? { result: JSON.parse(approval.envelope) as Record<string, unknown> }
      : {}),
  };
}

/**
 * `approval_status`: what became of a held call, for MCP clients (a model told a call is
 * pending asks here instead of calling again). Served by `lift serve` next to the registry's
 * tools and called through `invoke` like them.
 */
export function approvalStatusTool(find: (approvalId: string) => Awaitable<Approval | undefined>) {
  return defineTool({
    name: 'approval_status',
    title: 'Approval status',
    description:
      "Reads the state of a call held for a person's approval, by the approval_id its pending result gave: pending (not run yet), approved (running), executed (ran once; result holds its envelope) or denied. Returns the state, the preview the person sees, who decided and when, and what to do next. Errors: APPROVAL_NOT_FOUND for an unknown id.",
    rung: 'api',
    input: z.strictObject({
      approval_id: z
        .string()
        .regex(APPROVAL_ID)
        .describe('The approval_id from a pending result, e.g. ap_0123456789ab.'),
    }),
    output: ApprovalStatusSchema,
    errors: {
      APPROVAL_NOT_FOUND: {
        hint: 'Use the approval_id exactly as the pending result gave it (ap_ and 12 hex digits).',
      },
    },
    effect: { class: 'read' },
    timeout: { deadlineMs: 5_000 },
    example: { approval_id: 'ap_0123456789ab' },
    run: async ({ approval_id }) => {
      const approval = await find(approval_id);
      if (!approval) {
        throw new LiftError('APPROVAL_NOT_FOUND', `No held call has approval id '${approval_id}'.`, {
          outcome: 'not_started',
        });
      }
      const status = approvalStatus(approval);
      return { fields: status, summary: `${approval.tool} (${approval_id}) is ${approval.state}.` };
    },
  });
}
