/**
 * Scaling out on the shared queue: the same burst of jobs run by 1, 2 and 3 `lift worker`
 * processes on one PostgreSQL, against one process with the embedded SQLite store running
 * them in-process (the baseline), measured in the same run. Each job is a write through the
 * ledger that waits `BENCH_SCALE_HOLD_MS` (default 200) for its program, as a CLI or HTTP tool
 * does; every process runs 2 at a time. Throughput counts from the burst's start to its
 * last result; a job's latency is from its send to its result (pg-boss's own timestamps for
 * the workers, the clock around invoke for the baseline).
 * npm run build && npm run bench -- scale   (BENCH_SCALE_JOBS=N, default 60; 6 with LIFT_BENCH_SHORT=1)
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { JobQueue } from '../src/queue/queue.js';
import { Runtime } from '../src/runtime/runtime.js';
import { postWrite } from '../test/queue/queue-tools.js';
import { startWorker, stopWorkers } from '../test/queue/worker-process.js';
import { startSharedPostgres } from '../test/support/postgres-server.js';
import { tempDir } from '../test/support/temp.js';
import { setting } from './short.js';

const JOBS = setting('BENCH_SCALE_JOBS', 60, 6);
const HOLD_MS = Number(process.env.BENCH_SCALE_HOLD_MS ?? 200);
const CONCURRENCY = 2;

interface Figures {
  perSecond: number;
  p50: number;
  p95: number;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function figures(elapsedMs: number, latencies: number[]): Figures {
  return {
    perSecond: (latencies.length / elapsedMs) * 1000,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
  };
}

const input = (id: string) => ({ text: 'bench', request_id: id, hold_ms: HOLD_MS });

/** One process, the embedded store: the burst through invoke, two at a time. */
async function embedded(dir: string): Promise<Figures> {
  const runtime = new Runtime({ home: join(dir, 'embedded'), tools: [postWrite] });
  const ids = Array.from({ length: JOBS }, (_, i) => `sqlite-${i}`);
  const latencies: number[] = [];
  const start = performance.now();
  let next = 0;
  const lane = async () => {
    for (let id = ids[next++]; id !== undefined; id = ids[next++]) {
      const envelope = await runtime.invoke(postWrite, input(id));
      if (!envelope.ok) throw new Error(`baseline call failed: ${JSON.stringify(envelope)}`);
      latencies.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const elapsed = performance.now() - start;
  await runtime.close();
  return figures(elapsed, latencies);
}

/** The burst on the queue, run by `workers` lift worker processes. */
async function queued(queue: JobQueue, workers: number, start: (label: string) => Promise<ChildProcess>) {
  const running = await Promise.all(Array.from({ length: workers }, (_, i) => start(`w${workers}-${i}`)));
  try {
    const ids = Array.from({ length: JOBS }, (_, i) => `pg${workers}-${i}`);
    const began = performance.now();
    const jobIds = await Promise.all(
      ids.map((id) =>
        queue.enqueue({ kind: 'call', request_id: id, tool: postWrite.name, input: input(id) }),
      ),
    );
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      const [row] = await queue.sql<{ done: number; failed: number }>(
        `SELECT count(*) FILTER (WHERE state = 'completed')::int AS done,
                count(*) FILTER (WHERE state = 'failed')::int AS failed
           FROM pgboss.job WHERE id = ANY($1::uuid[])`,
        [jobIds],
      );
      if (row?.failed) throw new Error(`${row.failed} job(s) failed`);
      if (row?.done === JOBS) break;
      if (Date.now() > deadline) throw new Error(`only ${row?.done} of ${JOBS} jobs done in 10 minutes`);
      await sleep(50);
    }
    const times = await queue.sql<{ ms: number; span: number }>(
      `SELECT extract(epoch FROM completed_on - created_on) * 1000 AS ms,
              extract(epoch FROM max(completed_on) OVER () - min(created_on) OVER ()) * 1000 AS span
         FROM pgboss.job WHERE id = ANY($1::uuid[])`,
      [jobIds],
    );
    const waited = performance.now() - began;
    const span = Number(times[0]?.span ?? waited);
    return figures(
      span,
      times.map((each) => Number(each.ms)),
    );
  } finally {
    await stopWorkers(running);
  }
}

const dir = tempDir('lift-bench-scale-');
const server = await startSharedPostgres();
const workers: ChildProcess[] = [];
let queue: JobQueue | undefined;
try {
  const posts = join(dir.path, 'posts.log');
  writeFileSync(posts, '');
  writeFileSync(
    join(dir.path, 'lift.config.json'),
    JSON.stringify({ tools: [join(import.meta.dirname, '..', 'test', 'queue', 'queue-tools.ts')] }),
  );
  process.env.LIFT_TEST_POSTS = posts;
  queue = await JobQueue.open(server.url());
  const start = async (label: string) => {
    const child = await startWorker({
      cwd: dir.path,
      env: { LIFT_HOME: join(dir.path, label), LIFT_TEST_POSTS: posts, LIFT_POSTGRES_URL: server.url() },
      label,
      args: ['--concurrency', String(CONCURRENCY), '--grace-s', '5'],
    });
    workers.push(child);
    return child;
  };
  console.log(`${JOBS} jobs of ${HOLD_MS} ms each, ${CONCURRENCY} at a time per process`);
  const baseline = await embedded(dir.path);
  const show = (name: string, each: Figures) =>
    `${name}: ${each.perSecond.toFixed(2)} jobs/s, p50 ${each.p50.toFixed(0)} ms, p95 ${each.p95.toFixed(0)} ms`;
  console.log(show('baseline, one process on SQLite', baseline));
  let previous: Figures | undefined;
  for (const count of [1, 2, 3]) {
    const result = await queued(queue, count, start);
    const perWorker = previous
      ? `, per added worker ${(result.perSecond / previous.perSecond).toFixed(2)}`
      : '';
    console.log(
      `${show(`${count} worker(s) on PostgreSQL`, result)}, ratio to baseline ${(result.perSecond / baseline.perSecond).toFixed(2)}${perWorker}`,
    );
    previous = result;
  }
  // Every request id posted once, baseline and workers alike.
  const { postedIds } = await import('../test/queue/queue-tools.js');
  const all = postedIds(posts);
  if (all.length !== new Set(all).size || all.length !== JOBS * 4)
    throw new Error(`posts: ${all.length} lines, ${new Set(all).size} ids, expected ${JOBS * 4}`);
  console.log(`posts: ${all.length}, each request id once`);
} finally {
  await stopWorkers(workers);
  await queue?.close();
  server.stop();
  dir.remove();
}
