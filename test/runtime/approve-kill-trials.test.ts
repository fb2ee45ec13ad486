/**
 * kill -9 of `lift approve` at random moments while the approved call runs: the real
 * inventory program creates an item (inventory_create_item, review gate, settle read by
 * reference), and the next approve must report it or create it, once. LIFT_KILL_TRIALS sets
 * the number of trials (a few here; `npm run test:kill-trials` runs 100).
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { inventoryTools } from '../../src/apps/inventory/tools.js';
import { type Envelope, isPending, type PendingEnvelope } from '../../src/contract/envelope.js';
import { Runtime } from '../../src/runtime/runtime.js';
import type { Awaitable } from '../../src/store/awaitable.js';
import { startLift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const TRIALS = Number(process.env.LIFT_KILL_TRIALS ?? 3);
const SEED = new URL('../../src/fixtures/inventory/inventory.json', import.meta.url).pathname;
const DIST_TOOLS = new URL('../../dist/apps/inventory/tools.js', import.meta.url).href;
// The program pauses after it saved the item, so kills land before, during and after the write.
const PROGRAM_ENV = { INVENTORY_SLOW_MS: '250' };

const dir = tempDir('lift-kill-trials-');
const dataFile = join(dir.path, 'inventory.json');
const home = join(dir.path, 'home');
afterAll(() => {
  // A killed approver leaves its inventory program to finish on its own; end any still running.
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir.path))
        process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  dir.remove();
});

function items(reference: string): number {
  const data = JSON.parse(readFileSync(dataFile, 'utf8')) as { items: Array<{ reference: string }> };
  return data.items.filter((item) => item.reference === reference).length;
}

async function until(what: string, done: () => Awaitable<boolean>, ms = 60_000): Promise<void> {
  for (const end = Date.now() + ms; !(await done()); await sleep(5)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

/** An approve that has not answered within 60 s is stuck. */
function approveOrStuck(runtime: Runtime, id: string): Promise<Envelope | 'stuck'> {
  return Promise.race([runtime.approve(id), sleep(60_000).then(() => 'stuck' as const)]);
}

interface Tally {
  trials: number;
  killedBeforeWrite: number;
  killedAfterWrite: number;
  finishedBeforeKill: number;
  existing: number;
  changed: number;
  duplicates: number;
  missing: number;
  stuck: number;
  failed: string[];
}

describe('kill -9 of lift approve while the approved create runs', () => {
  it(
    `creates each item exactly once, and no approval stays stuck (${TRIALS} trials)`,
    async () => {
      copyFileSync(SEED, dataFile);
      // lift approve runs the configured tools (they replace the built-in ones of the same
      // name), so it writes the same data file as this process.
      writeFileSync(
        join(dir.path, 'inventory-tools.mjs'),
        `import { inventoryTools } from ${JSON.stringify(DIST_TOOLS)};\nexport const tools = inventoryTools(${JSON.stringify({ dataFile, env: PROGRAM_ENV })});\n`,
      );
      writeFileSync(join(dir.path, 'lift.config.json'), JSON.stringify({ tools: ['./inventory-tools.mjs'] }));
      const runtime = new Runtime({ home, tools: inventoryTools({ dataFile, env: PROGRAM_ENV }) });
      const tally: Tally = {
        trials: 0,
        killedBeforeWrite: 0,
        killedAfterWrite: 0,
        finishedBeforeKill: 0,
        existing: 0,
        changed: 0,
        duplicates: 0,
        missing: 0,
        stuck: 0,
        failed: [],
      };
      let windowMs = 0;
      try {
        // Trial 0 is not killed: it measures how long an approved create runs.
        for (let trial = 0; trial <= TRIALS; trial++) {
          const reference = `kill-trial-${trial}-${process.pid}`;
          const held = await runtime.invoke('inventory_create_item', {
            sku: 'K-100',
            name: `Trial item ${trial}`,
            qty: trial,
            location: 'Bin 1',
            request_id: reference,
          });
          if (!isPending(held)) throw new Error(JSON.stringify(held));
          const id = (held as PendingEnvelope).pending.approval_id;
          const approver = startLift(['approve', id, '--json'], { cwd: dir.path, env: { LIFT_HOME: home } });
          let exited = false;
          const gone = new Promise<void>((resolve) =>
            approver.once('exit', () => {
              exited = true;
              resolve();
            }),
          );
          await until(
            'the approver to take the approval',
            async () => exited || (await runtime.store.approvals.get(id))?.state !== 'pending',
          );
          const running = Date.now();
          if (trial === 0) {
            await until(
              'the approved create to finish',
              async () => (await runtime.store.approvals.get(id))?.state === 'executed',
            );
            windowMs = Math.max(300, Date.now() - running);
            await gone;
            expect(items(reference)).toBe(1);
            continue;
          }
          await sleep(Math.random() * windowMs);
          tally.trials += 1;
          if (exited || (await runtime.store.approvals.get(id))?.state === 'executed')
            tally.finishedBeforeKill += 1;
          else if (items(reference) > 0) tally.killedAfterWrite += 1;
          else tally.killedBeforeWrite += 1;
          approver.kill('SIGKILL');
          await gone;

          const answer = await approveOrStuck(runtime, id);
          const count = items(reference);
          if (count > 1) tally.duplicates += 1;
          if (answer === 'stuck' || (await runtime.store.approvals.get(id))?.state !== 'executed')
            tally.stuck += 1;
          else if (!answer.ok) tally.failed.push(JSON.stringify(answer));
          else if (count === 0) tally.missing += 1;
          else if ('effect' in answer && answer.effect === 'existing') tally.existing += 1;
          else tally.changed += 1;
        }
      } finally {
        await runtime.close();
        console.log(`approve kill -9 trials (create window ${windowMs} ms): ${JSON.stringify(tally)}`);
      }
      expect(tally).toMatchObject({ trials: TRIALS, duplicates: 0, missing: 0, stuck: 0, failed: [] });
    },
    120_000 + TRIALS * 30_000,
  );
});
