import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { type AnyTool, defineTool } from '../../contract/define-tool.js';
import { isError, isPending } from '../../contract/envelope.js';
import { type ErrorCode, LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { registeredSignIn } from '../../replay/sign-ins.js';
import { type CapabilityToolDeps, capabilityTool } from '../../replay/tool.js';
import { secretsOf } from '../../rungs/ui/sign-in.js';
import { TICKET_CLOSE_CAPABILITY } from './ticket-close-script.js';

const TicketSchema = z.looseObject({
  id: z.string(),
  status: z.enum(['open', 'closed']),
  resolution_note: z.string().nullable(),
  closed_at: z.string().nullable(),
});
type Ticket = z.infer<typeof TicketSchema>;

/** Why a close was refused as CONFLICT: the ticket is closed already, with another note. */
export const CLOSED_WITH_OTHER_NOTE = 'closed_with_other_note';

export interface TicketCloseOptions extends CapabilityToolDeps {
  /** The compiled capability that closes a ticket on the pages (default ticket_close_page). */
  capability?: string;
  /** The rung-1 read that verifies the close (default ticket_get, imported from the OpenAPI description). */
  readTool?: string;
}

/** Reads the ticket through the API tool; its failures become this tool's failures. */
async function readTicket(ctx: ToolContext, readTool: string, id: string): Promise<Ticket> {
  const envelope = await ctx.call(readTool, { id });
  if (isError(envelope)) {
    throw new LiftError(envelope.error.code as ErrorCode, `${readTool}: ${envelope.error.message}`, {
      hint: envelope.error.hint,
      ...(envelope.error.outcome ? { outcome: envelope.error.outcome } : {}),
    });
  }
  if (isPending(envelope))
    throw new LiftError('INTERNAL_ERROR', `${readTool} is gated; a read-back must not be.`);
  const parsed = TicketSchema.safeParse(envelope.fields);
  if (!parsed.success)
    throw new LiftError(
      'SURFACE_CHANGED',
      `${readTool} no longer returns status, resolution_note and closed_at.`,
    );
  return parsed.data;
}

/**
 * ticket_close_with_note, as the wrapper contract of 000_* lays it out: the ticket API has
 * no close call, so the close replays a compiled capability on the back office's pages
 * (rung 4, no model), while the read that decides and verifies stays on the API (rung 1).
 */
export async function ticketCloseWithNoteTool(options: TicketCloseOptions): Promise<AnyTool> {
  const capabilityName = options.capability ?? TICKET_CLOSE_CAPABILITY;
  const readTool = options.readTool ?? 'ticket_get';
  const registration = await options.registrations.get(capabilityName);
  /** Where the ticket pages are: the origin of the registered close. */
  const pageOrigin = async (): Promise<string> => {
    const current = await options.registrations.get(capabilityName);
    return current ? (await options.capabilities.load(current.revision)).preconditions.origin : '';
  };
  /** The ticket as ticket_get reads it, when it is closed with this note already. */
  const closedWithNote = async (
    input: { ticket_id: string; resolution_note: string },
    ctx: ToolContext,
  ): Promise<Ticket | undefined> => {
    const ticket = await readTicket(ctx, readTool, input.ticket_id);
    return ticket.status === 'closed' && ticket.resolution_note === input.resolution_note
      ? ticket
      : undefined;
  };
  const signIn = registration ? registeredSignIn(registration) : undefined;
  const signInSecret = signIn ? secretsOf(signIn)[0] : undefined;
  return defineTool({
    name: 'ticket_close_with_note',
    title: 'Close a ticket with a resolution note',
    description:
      'Close one support ticket with a resolution note the customer will see. Reads the ticket first and again afterwards through the ticket API.',
    group: 'backoffice',
    rung: 'script',
    ladder: {
      ruledOut: [
        '1 API: fails "present" (the ticket API has no close call)',
        '2 command line, 3 file: fail "present" (none exists)',
      ],
      stepDown: 'repeated SURFACE_CHANGED on the ticket page -> rung 5 (structured UI) for that page',
      climb: "the vendor's OpenAPI description lists a close call -> rung 1 (lift ladder walk --due)",
    },
    input: z.strictObject({
      ticket_id: z.string().regex(/^T-\d{6}$/, 'a ticket ID such as T-000101'),
      resolution_note: z.string().min(1).max(2_000),
      request_id: RequestIdSchema,
    }),
    output: z.strictObject({
      ticket_id: z.string(),
      status: z.enum(['open', 'closed']),
      closed_at: z.string().nullable(),
      url: z.string(),
    }),
    cap: { chars: 600 },
    verifiedBy: `${readTool} on rung 1: status closed and resolution_note equal to the note`,
    errors: {
      NOT_FOUND: { hint: 'No ticket has this ID. Check it, or find it with ticket_get.' },
      // The general code for a record in another state than the call assumes; details.reason says which.
      CONFLICT: {
        hint: 'The ticket is already closed with a different note (details.reason closed_with_other_note). Read it with ticket_get and decide with a person.',
      },
      CAPABILITY_DISABLED: {
        hint: 'The page script failed twice and was switched off. Rediscover it (lift ladder walk --due climbs when it is back).',
      },
      CHECK_FAILED: {
        hint: 'The page said done, but ticket_get does not show the ticket closed with this note. Read it before any retry.',
      },
    },
    effect: {
      class: 'visible',
      gate: 'review',
      repeat:
        'the same ticket_id and resolution_note returns effect: existing (decided by ticket_get); the same request_id returns the first result',
    },
    timeout: {
      deadlineMs: 45_000,
      budget: { steps: 8, attempts: 1 },
      settle: `${readTool} on rung 1 with the same ticket_id: closed with this note means the close landed`,
    },
    ...(signInSecret
      ? {
          session: {
            secret: signInSecret,
            onExpiry: 'the replay signs in again from the secret store; AUTH_REQUIRED when it is missing',
          },
        }
      : {}),
    preview: (input) =>
      `Close ticket ${input.ticket_id}; the customer will see the note: "${input.resolution_note}"`,
    example: {
      ticket_id: 'T-000101',
      resolution_note: 'Card unblocked after the customer called.',
      request_id: 'close-T-000101-1',
    },
    // A close cut off mid-call (its worker killed) landed when the ticket is closed with this note.
    settleRead: async (input, ctx) => {
      const landed = await closedWithNote(input, ctx);
      if (!landed) return undefined;
      return {
        fields: {
          ticket_id: landed.id,
          status: landed.status,
          closed_at: landed.closed_at,
          url: `${await pageOrigin()}/app/tickets/${input.ticket_id}`,
        },
        summary: `Ticket ${input.ticket_id} is closed with this note: the earlier call landed.`,
        effect: 'existing',
        verifiedBy: `${readTool} on rung 1 (settle read of status and resolution_note)`,
      };
    },
    run: async (input, ctx) => {
      const url = (origin: string) => `${origin}/app/tickets/${input.ticket_id}`;
      const before = await readTicket(ctx, readTool, input.ticket_id);
      const current = await options.registrations.get(capabilityName);
      const origin = await pageOrigin();
      if (before.status === 'closed') {
        if (before.resolution_note !== input.resolution_note) {
          throw new LiftError(
            'CONFLICT',
            `Ticket ${input.ticket_id} is already closed with a different note.`,
            {
              outcome: 'not_started',
              details: { reason: CLOSED_WITH_OTHER_NOTE, closed_at: before.closed_at },
            },
          );
        }
        return {
          fields: {
            ticket_id: before.id,
            status: before.status,
            closed_at: before.closed_at,
            url: url(origin),
          },
          summary: `Ticket ${input.ticket_id} was already closed with this note; nothing was done.`,
          effect: 'existing',
          verifiedBy: `${readTool} on rung 1 (API read of status and resolution_note)`,
        };
      }
      if (!current) {
        throw new LiftError('SURFACE_CHANGED', `No capability named ${capabilityName} is registered.`, {
          hint: 'Discover and register the close on the ticket page, then walk the ladder again.',
          outcome: 'not_started',
        });
      }
      const capability = await options.capabilities.load(current.revision);
      const replay = capabilityTool(capability, current, options);
      const replayInput = replay.input.parse({ ticketId: input.ticket_id, note: input.resolution_note });
      const replayed = await replay.run(replayInput, ctx);
      if (replayed.fields.outcome === 'not_found') {
        throw new LiftError('NOT_FOUND', `The back office shows no ticket ${input.ticket_id}.`, {
          outcome: 'not_started',
        });
      }
      const after = await readTicket(ctx, readTool, input.ticket_id);
      return {
        fields: {
          ticket_id: after.id,
          status: after.status,
          closed_at: after.closed_at,
          url: url(capability.preconditions.origin),
        },
        summary: `Closed ticket ${input.ticket_id} on the ticket page (capability ${current.revision.slice(0, 12)}); ${readTool} reads it back closed.`,
        effect: 'changed',
        verifiedBy: `${readTool} on rung 1 (API read of status and resolution_note after the replay)`,
        checks: [
          ...(replayed.checks ?? []),
          {
            name: 'closed (ticket_get)',
            passed: after.status === 'closed',
            detail: `status ${after.status}`,
          },
          { name: 'note matches (ticket_get)', passed: after.resolution_note === input.resolution_note },
        ],
      };
    },
  });
}
