import type { Script } from '../../discover/explorers/scripted.js';

const workspace = ['Workspace'];

/** Both scripts open a member the same way: wait for the field, type the ID, look it up. */
const OPEN_MEMBER = [
  { op: 'wait_for', target: { frame: workspace, locator: { by: 'label', label: 'Member ID' } } },
  {
    op: 'fill',
    target: { frame: workspace, locator: { by: 'label', label: 'Member ID' } },
    value: { input: 'memberId' },
  },
  {
    op: 'click',
    target: { frame: workspace, locator: { by: 'role', role: 'button', name: 'Look up' } },
  },
];

/**
 * The member lookup on the back-office fixture, as a scripted explorer plays it: the calls
 * a model made there, written down. Targets are semantic; the member ID is referred to by
 * input name only.
 */
export const MEMBER_LOOKUP_SCRIPT: Script = {
  explorer: 'scripted',
  description: 'Verify a member ID and return the savings balance and currency (back-office fixture).',
  calls: [
    { tool: 'observe', args: {} },
    {
      tool: 'act',
      args: {
        actions: [
          { op: 'click', target: { frame: [], locator: { by: 'role', role: 'link', name: 'Members' } } },
        ],
      },
    },
    { tool: 'observe', args: {} },
    {
      tool: 'act',
      args: {
        actions: OPEN_MEMBER,
      },
    },
    { tool: 'observe', args: {} },
    {
      tool: 'act',
      args: {
        actions: [
          {
            op: 'wait_for',
            target: { frame: workspace, locator: { by: 'role', role: 'heading', name: 'Accounts' } },
          },
          {
            op: 'read',
            target: { frame: workspace, locator: { by: 'cell', row: 'Savings', column: 'Balance' } },
            as: 'savingsBalance',
          },
          {
            op: 'read',
            target: { frame: workspace, locator: { by: 'cell', row: 'Savings', column: 'Currency' } },
            as: 'currency',
          },
        ],
      },
    },
    {
      tool: 'complete',
      args: {
        outputs: ['savingsBalance', 'currency'],
        checkpoint: {
          target: {
            frame: workspace,
            locator: { by: 'cell', row: '{{input.memberId}}', column: 'Member ID' },
          },
          input: 'memberId',
        },
      },
    },
  ],
};

/** The lookup task the script solves. */
export function memberLookupTask(origin: string, memberId: string) {
  return {
    name: 'member_lookup_savings',
    intent: 'Verify a member ID and return the savings balance and currency',
    inputs: [{ name: 'memberId', type: 'string' as const, description: 'Member ID such as M-1234' }],
    outputs: [
      { name: 'savingsBalance', type: 'number' as const },
      { name: 'currency', type: 'string' as const },
    ],
    bound: { memberId },
    startUrl: `${origin}/app?view=/app/tickets`,
  };
}

/** The policy discovery runs under on the fixture: its origin, six click names, Transfer blocked. */
export function memberLookupPolicy(origin: string) {
  return {
    version: 1 as const,
    origins: [origin],
    paths: ['/app', '/app/**', '/login'],
    clickNames: ['Members', 'Tickets', 'Look up', 'Back to lookup', 'Add note', 'Sign in'],
    blockedNames: ['Transfer'],
    budgets: { steps: 40, seconds: 120, rejected: 6 },
  };
}

/** Adding a note to a member (a visible write): the script a model would have sent. */
export const MEMBER_NOTE_SCRIPT: Script = {
  explorer: 'scripted',
  description: 'Add a note to a member and return the member status shown afterwards (back-office fixture).',
  calls: [
    { tool: 'observe', args: {} },
    {
      tool: 'act',
      args: {
        actions: [
          { op: 'click', target: { frame: [], locator: { by: 'role', role: 'link', name: 'Members' } } },
        ],
      },
    },
    {
      tool: 'act',
      args: {
        actions: OPEN_MEMBER,
      },
    },
    { tool: 'observe', args: {} },
    {
      tool: 'act',
      args: {
        actions: [
          {
            op: 'fill',
            target: { frame: workspace, locator: { by: 'label', label: 'Note' } },
            value: { input: 'note' },
          },
          {
            op: 'click',
            target: { frame: workspace, locator: { by: 'role', role: 'button', name: 'Add note' } },
          },
        ],
      },
    },
    {
      tool: 'act',
      args: {
        actions: [
          {
            op: 'read',
            target: {
              frame: workspace,
              locator: { by: 'cell', row: '{{input.memberId}}', column: 'Status' },
            },
            as: 'memberStatus',
          },
        ],
      },
    },
    {
      tool: 'complete',
      args: {
        outputs: ['memberStatus'],
        checkpoint: {
          target: {
            frame: workspace,
            locator: { by: 'cell', row: '{{input.memberId}}', column: 'Member ID' },
          },
          input: 'memberId',
          // A write reads back what it wrote: the note, in the member's list of notes.
          values: [
            { target: { frame: workspace, locator: { by: 'text', text: '{{input.note}}' } }, input: 'note' },
          ],
        },
      },
    },
  ],
};

/** The note task the script solves. */
export function memberNoteTask(origin: string, memberId: string, note: string) {
  return {
    name: 'member_note_add',
    intent: 'Add a note to a member and return the member status',
    inputs: [
      { name: 'memberId', type: 'string' as const, description: 'Member ID such as M-1234' },
      { name: 'note', type: 'string' as const, description: 'The note text' },
    ],
    outputs: [{ name: 'memberStatus', type: 'string' as const }],
    bound: { memberId, note },
    startUrl: `${origin}/app?view=/app/tickets`,
    outcomes: ['found' as const, 'not_found' as const],
  };
}
