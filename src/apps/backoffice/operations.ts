import type { DeclarationFile } from '../../ladder/declaration.js';
import { TICKET_CLOSE_CAPABILITY } from './ticket-close-script.js';

/**
 * The worked example of 000_* as a declaration: the ticket read has an API door; the close
 * has an API door only if the vendor ships one, and a recorded-script door through the
 * compiled capability, read back by ticket_get.
 */
export function backofficeOperations(options: {
  spec: string;
  baseUrl: string;
  probeTicket: string;
}): DeclarationFile {
  return {
    systems: { backoffice: { own: false } },
    operations: [
      {
        name: 'ticket_get',
        description: 'Read one support ticket',
        system: 'backoffice',
        effect: 'read',
        fields: ['id', 'status', 'resolution_note', 'closed_at'],
        candidates: [
          {
            rung: 'api',
            spec: options.spec,
            operation_id: 'getTicket',
            base_url: options.baseUrl,
            probe: { id: options.probeTicket },
            secrets: [],
          },
        ],
        step_down_after: 1,
      },
      {
        name: 'ticket_close_with_note',
        description: 'Close a ticket with a resolution note the customer sees',
        system: 'backoffice',
        effect: 'visible',
        fields: [],
        read_back: 'ticket_get',
        candidates: [
          {
            rung: 'api',
            spec: options.spec,
            operation_id: 'closeTicket',
            base_url: options.baseUrl,
            secrets: [],
          },
          {
            rung: 'script',
            capability: TICKET_CLOSE_CAPABILITY,
            tool: 'ticket_close_with_note',
            secrets: [],
          },
        ],
        step_down_after: 1,
      },
    ],
  };
}
