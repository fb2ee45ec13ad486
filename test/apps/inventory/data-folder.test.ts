import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lift } from '../../e2e/cli-helpers.js';
import { tempDir } from '../../support/temp.js';

/**
 * The built-in inventory tools keep their data file in Lift's home (`data/inventory/`), not in
 * the working folder: the same LIFT_HOME seen from two folders holds the same items.
 */
const dir = tempDir('lift-inventory-data-');
afterAll(() => dir.remove());
const home = join(dir.path, 'home');
const first = join(dir.path, 'first');
const second = join(dir.path, 'second');
mkdirSync(first);
mkdirSync(second);
const env = { LIFT_HOME: home };

interface Answer {
  pending: { approval_id: string };
  fields: { count: number; items: Array<{ name: string }> };
}

async function call(cwd: string, tool: string, input: object): Promise<Answer> {
  const result = await lift(['call', tool, '--input', JSON.stringify(input)], env, cwd);
  return JSON.parse(result.stdout) as Answer;
}

describe('the inventory data file by default', () => {
  it('is the same from any working folder with the same LIFT_HOME, and in neither folder', {
    timeout: 240_000,
  }, async () => {
    const input = { sku: 'Q-2001', name: 'Cable tie', qty: 3, location: 'Shelf 2', request_id: 'req-data-1' };
    const held = await call(first, 'inventory_create_item', input);
    const approved = await lift(['approve', held.pending.approval_id, '--json'], env, first);
    expect(approved.code, approved.stderr).toBe(0);

    const fromSecond = await call(second, 'inventory_find_items', { sku: 'Q-2001' });
    expect(fromSecond.fields.count).toBe(1);
    expect(fromSecond.fields.items[0]?.name).toBe('Cable tie');
    const fromFirst = await call(first, 'inventory_find_items', { sku: 'Q-2001' });
    expect(fromFirst.fields.count).toBe(1);

    expect(existsSync(join(first, 'inventory.json'))).toBe(false);
    expect(existsSync(join(second, 'inventory.json'))).toBe(false);
    expect(existsSync(join(home, 'data', 'inventory', 'inventory.json'))).toBe(true);
    expect(statSync(join(home, 'data', 'inventory')).mode & 0o777).toBe(0o700);
  });
});
