/**
 * The API rung's price: ticket_get through the whole contract (validation, deadline, schema
 * check of the response, field trim, scrub, run log) against a bare fetch + JSON.parse of the
 * same URL on the back-office fixture; importing the 51-operation description against only
 * parsing it; and one ladder walk of ticket_get with its live probe.
 *
 *   node --import tsx bench/api.bench.ts   (LIFT_BENCH_SHORT=1: one or two of each, bench/short.ts)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startBackoffice } from '../src/fixtures/backoffice/index.js';
import { Ladder } from '../src/ladder/ladder.js';
import { importOpenApi } from '../src/rungs/api/import.js';
import { toolsFromApiFile } from '../src/rungs/api/loader.js';
import { readSpec } from '../src/rungs/api/openapi.js';
import { Runtime } from '../src/runtime/runtime.js';
import { iterations } from './short.js';

const CALLS = iterations(300, 2);
const IMPORTS = iterations(20, 1);
const WALKS = iterations(20, 1);
const ROOT = join(import.meta.dirname, '..');
const FIXTURE_SPEC = join(ROOT, 'src', 'fixtures', 'backoffice', 'openapi.json');
const LARGE_SPEC = join(ROOT, 'test', 'fixtures', 'openapi', 'petstore-large.yaml');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function samples(count: number, run: (i: number) => Promise<unknown> | unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  return times;
}

function line(name: string, lift: number, baseline: number): void {
  console.log(
    `${name}: lift ${lift.toFixed(3)} ms, baseline ${baseline.toFixed(3)} ms, ratio ${(lift / baseline).toFixed(2)}`,
  );
}

const fixture = await startBackoffice();
const home = mkdtempSync(join(tmpdir(), 'lift-bench-api-'));
const runtime = new Runtime({
  home,
  tools: toolsFromApiFile(importOpenApi(readSpec(FIXTURE_SPEC)).file, { baseUrl: fixture.url }),
});
const ids = ['T-000101', 'T-000102', 'T-000103', 'T-000104', 'T-000105'];
try {
  // Warm both paths (connection pool, JIT) before measuring.
  for (const id of ids) {
    await runtime.invoke('ticket_get', { id });
    await (await fetch(`${fixture.url}/api/tickets/${id}`)).json();
  }
  // Interleaved, so that load from other processes falls on both paths alike.
  const bare: number[] = [];
  const lifted: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    bare.push(
      ...(await samples(1, async () => (await fetch(`${fixture.url}/api/tickets/${ids[i % 5]}`)).json())),
    );
    lifted.push(
      ...(await samples(1, async () => {
        const envelope = await runtime.invoke('ticket_get', { id: ids[i % 5] });
        if (!envelope.ok) throw new Error(JSON.stringify(envelope));
      })),
    );
  }
  line('ticket_get median per call (invoke vs bare fetch)', median(lifted), median(bare));

  const parseOnly = await samples(IMPORTS, () => readSpec(LARGE_SPEC));
  const imported = await samples(IMPORTS, () => toolsFromApiFile(importOpenApi(readSpec(LARGE_SPEC)).file));
  line('import 51 operations to 48 tools (vs parsing the YAML)', median(imported), median(parseOnly));

  const operations = join(home, 'operations.yaml');
  writeFileSync(
    operations,
    stringify({
      operations: [
        {
          name: 'ticket_get',
          description: 'Read one ticket',
          system: 'backoffice',
          effect: 'read',
          fields: ['id', 'status'],
          candidates: [
            {
              rung: 'api',
              spec: FIXTURE_SPEC,
              operation_id: 'getTicket',
              base_url: fixture.url,
              probe: { id: 'T-000103' },
            },
          ],
        },
      ],
    }),
  );
  const ladder = new Ladder(runtime);
  ladder.declare(operations);
  await ladder.walk('ticket_get');
  const walks: number[] = [];
  const probes: number[] = [];
  for (let i = 0; i < WALKS; i++) {
    walks.push(...(await samples(1, () => ladder.walk('ticket_get'))));
    probes.push(...(await samples(1, () => runtime.invoke('ticket_get', { id: 'T-000103' }))));
  }
  line(
    'ladder walk of ticket_get with its live probe (vs the probe call alone)',
    median(walks),
    median(probes),
  );
} finally {
  await runtime.close();
  await fixture.close();
  rmSync(home, { recursive: true, force: true });
}
