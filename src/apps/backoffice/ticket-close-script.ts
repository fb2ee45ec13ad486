import type { Script } from '../../discover/explorers/scripted.js';
import type { DiscoveryTask } from '../../discover/session.js';
import type { UiPolicyInput } from '../../rungs/ui/policy.js';

const workspace = ['Workspace'];

/** The name of the compiled capability that closes a ticket through the back office's pages. */
export const TICKET_CLOSE_CAPABILITY = 'ticket_close_page';

/**
 * Closing a ticket with a resolution note on the back office, as a scripted explorer plays
 * it: open the ticket from the list, type the note, press "Close with note", read the status
 * back from the page. The ticket ID and the note are referred to by input name only.
 */
export const TICKET_CLOSE_SCRIPT: Script = {
  explorer: 'scripted',
  description: 'Close a back-office ticket with a resolution note (no API call exists for it).',
  calls: [
    { tool: 'observe', args: {} },
    {
      tool: 'act',
      args: {
        actions: [
          {
            op: 'wait_for',
            target: { frame: workspace, locator: { by: 'role', role: 'heading', name: 'Tickets' } },
          },
          {
            op: 'click',
            target: { frame: workspace, locator: { by: 'role', role: 'link', name: '{{bound:ticketId}}' } },
          },
        ],
      },
    },
    { tool: 'observe', args: {} },
    {
      tool: 'act',
      args: {
        actions: [
          {
            op: 'fill',
            target: { frame: workspace, locator: { by: 'label', label: 'Resolution note' } },
            value: { input: 'note' },
          },
          {
            op: 'click',
            target: { frame: workspace, locator: { by: 'role', role: 'button', name: 'Close with note' } },
          },
        ],
      },
    },
    { tool: 'observe', args: {} },
    {
      tool: 'act',
      args: {
        actions: [
          {
            op: 'wait_for',
            target: { frame: workspace, locator: { by: 'text', text: 'This ticket is closed.' } },
          },
          {
            op: 'read',
            target: {
              frame: workspace,
              locator: { by: 'cell', row: '{{bound:ticketId}}', column: 'Status' },
            },
            as: 'status',
          },
        ],
      },
    },
    {
      tool: 'complete',
      args: {
        outputs: ['status'],
        checkpoint: {
          target: { frame: workspace, locator: { by: 'cell', row: '{{input.ticketId}}', column: 'Ticket' } },
          input: 'ticketId',
          // A write reads back what it wrote: the note, in the ticket's row.
          values: [
            {
              target: {
                frame: workspace,
                locator: { by: 'cell', row: '{{input.ticketId}}', column: 'Resolution note' },
              },
              input: 'note',
            },
          ],
        },
      },
    },
  ],
};

/**
 * The script with the ticket ID written in where the explorer names the link and the row
 * (a scripted explorer stands where a model would read the ID off the page).
 */
export function ticketCloseScript(ticketId: string): Script {
  return JSON.parse(JSON.stringify(TICKET_CLOSE_SCRIPT).replaceAll('{{bound:ticketId}}', ticketId)) as Script;
}

export function ticketCloseTask(origin: string, bound: { ticketId: string; note: string }): DiscoveryTask {
  return {
    name: TICKET_CLOSE_CAPABILITY,
    intent: 'Close a ticket with a resolution note',
    inputs: [
      { name: 'ticketId', type: 'string', description: 'Ticket ID such as T-000101' },
      { name: 'note', type: 'string', description: 'The resolution note the customer will see' },
    ],
    outputs: [{ name: 'status', type: 'string' }],
    bound,
    startUrl: `${origin}/app?view=/app/tickets`,
  };
}

/** The policy the close runs under: the fixture's origin, ticket pages, four click names, Transfer blocked. */
export function ticketClosePolicy(origin: string): UiPolicyInput {
  return {
    version: 1,
    origins: [origin],
    paths: ['/app', '/app/**', '/login'],
    clickNames: ['Tickets', 'T-*', 'Close with note', 'Sign in'],
    blockedNames: ['Transfer'],
    budgets: { steps: 30, seconds: 120, rejected: 4 },
  };
}
