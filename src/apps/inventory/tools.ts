import { dirname } from 'node:path';
import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { type AnyTool, defineTool, type ToolResult } from '../../contract/define-tool.js';
import type { Check } from '../../contract/envelope.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { parseRegexRows } from '../../rungs/cli/parsers.js';
import { runWrapped } from '../../rungs/cli/run-wrapped.js';
import {
  INVENTORY_EXIT_CODES,
  INVENTORY_PROGRAM,
  type InventoryItem,
  type InventorySettings,
  parseItemCard,
  parseItemTable,
} from './program.js';
// Declares the events this file emits, with their words (a run log's readers find them there).
import './events.js';

const Item = z.object({
  id: z.string().describe("The program's item id."),
  sku: z.string().describe('Stock-keeping unit, e.g. A-100.'),
  name: z.string().describe('Item name.'),
  qty: z.number().int().describe('Units in stock.'),
  location: z.string().describe('Where it is stored, e.g. Shelf 3.'),
  reference: z.string().describe('The request_id it was created with; empty if made by hand.'),
});

const Sku = z
  .string()
  .regex(/^[A-Z]-\d{3,5}$/, 'an SKU like A-100')
  .describe('Stock-keeping unit: a capital letter, a dash, 3 to 5 digits (A-100).');
const Text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\p{L}\p{N} ,.\-/()]+$/u, 'letters, digits, spaces and , . - / ( ) only');
const CONFIRMATION = /^Create item .+\? \[Y\/n\]$/;

const DEFAULT_DATA_FILE = 'inventory.json';
const dataFileOf = (settings: InventorySettings) => settings.dataFile ?? DEFAULT_DATA_FILE;

/**
 * The data file is the operator's; a link that leads out of its folder, or into the rest of
 * Lift's home, is refused. A relative one lives in the inventory's data folder of the home.
 */
const dataFileScope = (settings: InventorySettings) => ({
  family: 'inventory',
  what: 'the inventory data file',
  roots: [dirname(dataFileOf(settings))],
  data: true,
});

/** Runs one inventory command under runWrapped with the program's exit table. */
function inventory(
  settings: InventorySettings,
  ctx: ToolContext,
  args: string[],
  extra: { approved?: boolean } = {},
) {
  const dataFile = ctx.resolvePath(dataFileOf(settings), dataFileScope(settings));
  return runWrapped({
    program: settings.program ?? INVENTORY_PROGRAM,
    args: ['--data', dataFile, ...args],
    deadline: ctx.deadline,
    signal: ctx.signal,
    exitCodes: INVENTORY_EXIT_CODES,
    cap: 256 * 1024,
    ...(settings.env ? { env: settings.env } : {}),
    ...(extra.approved !== undefined
      ? {
          confirmations: [{ pattern: CONFIRMATION, answer: 'y' }],
          approved: extra.approved,
          // Nothing is written before the confirmation is answered.
          effectStarts: 'confirmation' as const,
          settle: 'inventory_find_items with reference = the request_id',
        }
      : // list and show only read: the create's earlier look for its request_id starts nothing.
        { effectStarts: 'confirmation' as const }),
  });
}

async function findItems(
  settings: InventorySettings,
  ctx: ToolContext,
  filter: string[],
): Promise<InventoryItem[]> {
  const result = await inventory(settings, ctx, ['list', ...filter]);
  return parseItemTable('inventory', result.stdout);
}

interface CreateRequest {
  sku: string;
  name: string;
  qty: number;
  request_id: string;
}

/** The item read back holds what was asked, and the request_id that made it. */
function readBackChecks(item: InventoryItem, input: CreateRequest): Check[] {
  return [
    {
      name: 'read back matches the request',
      passed: item.sku === input.sku && item.qty === input.qty && item.name === input.name,
    },
    { name: 'carries the request_id', passed: item.reference === input.request_id },
  ];
}

/**
 * The item an earlier create with this request id made, read back from the program with the
 * checks of its read-back: the program keeps no request ids, so the wrapper stores its own in
 * the item's reference.
 */
async function itemOfRequest(
  settings: InventorySettings,
  ctx: ToolContext,
  input: CreateRequest,
): Promise<ToolResult<InventoryItem> | undefined> {
  const requestId = input.request_id;
  const earlier = await findItems(settings, ctx, ['--ref', requestId]);
  if (earlier.length > 1)
    throw new LiftError('CONFLICT', `${earlier.length} items carry request_id ${requestId}.`);
  if (!earlier[0]) return undefined;
  return {
    fields: earlier[0],
    summary: `Item ${earlier[0].id} was already created by this request`,
    effect: 'existing',
    verifiedBy: 'inventory list --ref (rung 2)',
    checks: readBackChecks(earlier[0], input),
  };
}

/** The tools over the legacy inventory program, for one data file. */
export function inventoryTools(settings: InventorySettings = {}): AnyTool[] {
  const findItemsTool = defineTool({
    name: 'inventory_find_items',
    title: 'Find inventory items',
    description:
      'Lists inventory items with a given SKU or creation reference (request_id), read from the legacy inventory program. Returns id, sku, name, qty, location, reference.',
    group: 'inventory',
    rung: 'cli',
    ladder: { ruledOut: ['api: the inventory has no API (fails "present")'] },
    input: z.strictObject({
      sku: Sku.optional(),
      reference: RequestIdSchema.optional().describe('the request_id an item was created with'),
    }),
    output: z.object({
      items: z.array(Item).describe('The items that match.'),
      count: z.number().int().describe('How many items match.'),
    }),
    cap: { rows: 50, narrow: 'Filter by sku or reference.' },
    errors: {},
    effect: { class: 'read' },
    timeout: { deadlineMs: 15_000 },
    example: { sku: 'A-100' },
    run: async (input, ctx) => {
      const filter = [
        ...(input.sku ? ['--sku', input.sku] : []),
        ...(input.reference ? ['--ref', input.reference] : []),
      ];
      const items = await findItems(settings, ctx, filter);
      return {
        fields: { items, count: items.length },
        summary: `${items.length} inventory item(s)`,
        verifiedBy: 'inventory list (rung 2), parsed from its table',
      };
    },
  });

  const createItemTool = defineTool({
    name: 'inventory_create_item',
    title: 'Create an inventory item',
    description:
      'Creates one inventory item (sku, name, qty, location) in the legacy inventory program, exactly once per request_id. Returns the new item id, read back from the program.',
    group: 'inventory',
    rung: 'cli',
    ladder: {
      ruledOut: ['api: none exists (fails "present")'],
      stepDown: 'repeated SURFACE_CHANGED on the add dialogue -> rung 4',
      climb: 'the vendor ships an import API -> rung 1',
    },
    input: z.strictObject({
      sku: Sku,
      name: Text(60).describe('Item name, e.g. Blue widget.'),
      qty: z.number().int().min(0).max(1_000_000).describe('Units in stock at the start.'),
      location: Text(40).describe('Where it is stored, e.g. Shelf 3.'),
      request_id: RequestIdSchema,
    }),
    output: Item,
    errors: {
      LOCKED: { retry: 'yes', hint: 'Another user is saving the inventory; call again in a few seconds.' },
      CONFLICT: {
        retry: 'no',
        hint: 'More than one item carries this request_id; a person must merge them.',
      },
    },
    effect: {
      class: 'visible',
      gate: 'review',
      repeat:
        'The same request_id returns the first item (effect: existing); the program itself would create a duplicate.',
    },
    timeout: { deadlineMs: 20_000, settle: 'inventory_find_items with reference = the request_id' },
    confirmations: ['Create item SKU (NAME, qty N) at LOCATION? [Y/n] -> y'],
    session: { secret: 'none', onExpiry: 'The program runs as the wrapper user; no sign-in.' },
    paths: () => [{ path: dataFileOf(settings), scope: dataFileScope(settings) }],
    preview: (input) =>
      `Create inventory item ${input.sku} "${input.name}", qty ${input.qty}, at ${input.location}`,
    example: { sku: 'A-100', name: 'Bolt M4 x 20', qty: 12, location: 'Shelf 1', request_id: 'req-2f9c1a7e' },
    settleRead: (input, ctx) => itemOfRequest(settings, ctx, input),
    run: async (input, ctx) => {
      const earlier = await itemOfRequest(settings, ctx, input);
      if (earlier) return earlier;
      const added = await inventory(
        settings,
        ctx,
        [
          'add',
          '--sku',
          input.sku,
          '--name',
          input.name,
          '--qty',
          String(input.qty),
          '--location',
          input.location,
          '--ref',
          input.request_id,
        ],
        { approved: ctx.approved },
      );
      const created = parseRegexRows('inventory', added.stdout, /Created item (?<id>INV-\d+)\.$/).value[0]
        ?.id;
      if (!created)
        throw new LiftError('SURFACE_CHANGED', 'The inventory did not print "Created item ID.".', {
          outcome: 'unknown',
        });
      ctx.emit({ type: 'inventory-item-created', id: created });
      const card = await inventory(settings, ctx, ['show', created]);
      const item = parseItemCard('inventory', card.stdout);
      return {
        fields: item,
        summary: `Created item ${item.id} (${item.sku})`,
        effect: 'changed',
        verifiedBy: 'inventory show (rung 2)',
        checks: readBackChecks(item, input),
      };
    },
  });

  return [findItemsTool, createItemTool];
}
