/**
 * A wrapper process that approves and runs inventory_create_item, for a test to kill -9
 * in the middle of the create. Arguments: LIFT_HOME DATA_FILE INPUT_JSON.
 */
import { inventoryTools } from '../../../src/apps/inventory/tools.js';
import { isPending } from '../../../src/contract/envelope.js';
import { Runtime } from '../../../src/runtime/runtime.js';

const [home, dataFile, inputJson] = process.argv.slice(2);
if (!home || !dataFile || !inputJson) throw new Error('usage: crash-during-create HOME DATA INPUT');
const runtime = new Runtime({
  home,
  tools: inventoryTools({ dataFile, env: { INVENTORY_SLOW_MS: '30000' } }),
});
const held = await runtime.invoke('inventory_create_item', JSON.parse(inputJson));
if (!isPending(held)) throw new Error(`expected the create to be held, got ${JSON.stringify(held)}`);
process.stdout.write('approving\n');
await runtime.approve(held.pending.approval_id);
process.stdout.write('finished\n');
