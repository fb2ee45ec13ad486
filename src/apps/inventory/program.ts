import { fileURLToPath } from 'node:url';
import { LiftError } from '../../contract/errors.js';
import type { CapturedStream } from '../../rungs/cli/capture.js';
import type { ExitMeaning } from '../../rungs/cli/exit-status.js';
import { parseColumns, parseRegexRows, type Row } from '../../rungs/cli/parsers.js';

/** The legacy inventory program shipped as a fixture (resolves from src/ and from dist/). */
export const INVENTORY_PROGRAM = fileURLToPath(
  new URL('../../../src/fixtures/inventory/inventory.py', import.meta.url),
);

export interface InventorySettings {
  /**
   * The program's data file (passed as --data). Default `inventory.json`; a relative path
   * resolves in the inventory's data folder of Lift's home (`data/inventory/`), never the
   * working folder, so the same home sees the same items from any folder.
   */
  dataFile?: string;
  /** The program to run (default: the fixture). */
  program?: string;
  /** Extra environment for the program (tests use INVENTORY_SLOW_MS). */
  env?: Record<string, string>;
}

/** The program's exit statuses, from its manual. */
export const INVENTORY_EXIT_CODES: Record<number, ExitMeaning> = {
  2: {
    code: 'SURFACE_CHANGED',
    message: 'The inventory program rejected the arguments the tool sends (usage error).',
  },
  3: {
    code: 'NOT_FOUND',
    message: 'The inventory has no item with that id.',
    hint: 'Find the item with inventory_find_items.',
  },
  4: {
    code: 'LOCKED',
    message: 'The inventory data file is locked by another user.',
    hint: 'Someone is saving the inventory right now; try again in a few seconds. Nothing was created.',
    outcome: 'not_started',
  },
  5: { code: 'BAD_INPUT', message: 'The inventory program rejected a value.', outcome: 'not_started' },
};

export interface InventoryItem {
  id: string;
  sku: string;
  name: string;
  qty: number;
  location: string;
  reference: string;
}

const TABLE_HEADER = ['ID', 'SKU', 'NAME', 'QTY', 'LOCATION', 'REFERENCE'] as const;

function toItem(row: Row): InventoryItem {
  const qty = Number(row.QTY ?? row.Qty);
  if (!Number.isInteger(qty)) {
    throw new LiftError(
      'SURFACE_CHANGED',
      `The inventory printed a quantity that is not a number: ${JSON.stringify(row)}.`,
    );
  }
  return {
    id: row.ID ?? row.Id ?? '',
    sku: row.SKU ?? row.Sku ?? '',
    name: row.NAME ?? row.Name ?? '',
    qty,
    location: row.LOCATION ?? row.Location ?? '',
    reference: row.REFERENCE ?? row.Reference ?? '',
  };
}

/** Reads the human table of `inventory list`: rows between the rule line and the "N item(s)." footer. */
export function parseItemTable(program: string, stdout: CapturedStream): InventoryItem[] {
  const rows = parseColumns(
    program,
    stdout,
    TABLE_HEADER,
    /^\d+ item\(s\)\.$|^Legacy Inventory System/,
  ).value;
  const footer = /^(\d+) item\(s\)\.$/m.exec(stdout.text);
  if (!footer || Number(footer[1]) !== rows.length) {
    throw new LiftError(
      'SURFACE_CHANGED',
      'The inventory listing has no "N item(s)." footer matching its rows.',
      {
        hint: `Sample: ${JSON.stringify(stdout.text.slice(0, 300))}. Update the inventory parser.`,
      },
    );
  }
  return rows.map(toItem);
}

/** Reads `inventory show ID`: "Key:  value" lines. */
export function parseItemCard(program: string, stdout: CapturedStream): InventoryItem {
  const lines = parseRegexRows(program, stdout, /^(?<key>[A-Z][a-z]+):\s*(?<value>.*)$/).value;
  const card: Row = Object.fromEntries(lines.map((line) => [line.key ?? '', (line.value ?? '').trim()]));
  if (!card.Id || !card.Sku) throw new LiftError('SURFACE_CHANGED', 'The item card has no Id or Sku line.');
  return toItem(card);
}
