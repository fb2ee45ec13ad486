/**
 * The load the issue asks for, on hosts this test makes: a PostgreSQL and three `lift worker`
 * processes, each worker in its own network namespace with its own address on a private /24
 * (they reach the server at the bridge's address, nothing else). 1,000 jobs are sent at once;
 * every 100 finished jobs one worker is killed with SIGKILL and started again on its host.
 * Every job must end ok, and every request id must be posted exactly once in the tool's own
 * file: 0 lost, 0 doubled. The figures are printed for docs/scale.md.
 * npm run build && npm run test:load
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JobOutput } from '../../src/queue/job.js';
import { JobQueue } from '../../src/queue/queue.js';
import { postedIds } from '../queue/queue-tools.js';
import { startWorker, stopWorkers } from '../queue/worker-process.js';
import { type SharedPostgres, startSharedPostgres } from '../support/postgres-server.js';
import { tempDir } from '../support/temp.js';
import { type PrivateNetwork, privateNetwork } from './network-namespaces.js';

const JOBS = 1_000;
const KILL_EVERY = 100;
const WORKERS = 3;
/** Jobs sent and not yet done, at most. */
const WINDOW = 60;

const dir = tempDir('lift-load-');
const posts = join(dir.path, 'posts.log');
let network: PrivateNetwork | undefined;
let server: SharedPostgres | undefined;
let queue: JobQueue | undefined;
const workers: ChildProcess[] = [];

// The namespaces and veths go in every exit path: a failed hook, a signal, the process ending.
const removeNetwork = () => network?.remove();
const onSignal = (signal: NodeJS.Signals) => {
  removeNetwork();
  process.kill(process.pid, signal);
};
process.once('exit', removeNetwork);
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);

/** Worker `index` on its own host: its namespace, its home, the server by the bridge's address. */
function startOn(index: number): Promise<ChildProcess> {
  const host = network!.hosts[index]!;
  return startWorker({
    cwd: dir.path,
    namespace: host.namespace,
    env: {
      LIFT_HOME: join(dir.path, `host-${index}`),
      LIFT_TEST_POSTS: posts,
      LIFT_POSTGRES_URL: server!.url(network!.serverAddress),
    },
    label: `host-${index}`,
    args: ['--concurrency', '4', '--grace-s', '5', '--address', host.address],
  });
}

beforeAll(async () => {
  network = privateNetwork(WORKERS);
  server = await startSharedPostgres([network.serverAddress]);
  writeFileSync(
    join(dir.path, 'lift.config.json'),
    JSON.stringify({ tools: [join(import.meta.dirname, '..', 'queue', 'queue-tools.ts')] }),
  );
  writeFileSync(posts, '');
  queue = await JobQueue.open(server.url());
  for (let i = 0; i < WORKERS; i++) workers[i] = await startOn(i);
});

afterAll(async () => {
  await stopWorkers(workers);
  await queue?.close();
  server?.stop();
  removeNetwork();
  dir.remove();
});

it('runs 1,000 jobs on three worker hosts with a kill -9 every 100: none lost, none doubled', async () => {
  const q = queue!;
  const ids = Array.from({ length: JOBS }, (_, i) => `load-${i}`);
  const jobIds: string[] = [];
  // Writes that hold 20 to 100 ms after they land: a kill often finds a post written and not yet answered.
  const send = (i: number) =>
    q.enqueue({
      kind: 'call',
      request_id: ids[i]!,
      tool: 'post_write',
      input: { text: 'load', request_id: ids[i]!, hold_ms: 20 + (i % 5) * 20 },
    });
  const began = Date.now();
  let kills = 0;
  const killedAt: number[] = [];
  let restarting: Promise<void> | undefined;
  const deadline = Date.now() + 12 * 60_000;
  for (let nextKill = KILL_EVERY; ; await sleep(100)) {
    const [row] = await q.sql<{ done: number; failed: number }>(
      `SELECT count(*) FILTER (WHERE state = 'completed')::int AS done,
              count(*) FILTER (WHERE state = 'failed')::int AS failed
         FROM pgboss.job WHERE id = ANY($1::uuid[])`,
      [jobIds],
    );
    const done = row?.done ?? 0;
    expect(row?.failed).toBe(0);
    if (done === JOBS) break;
    if (Date.now() > deadline) throw new Error(`${done} of ${JOBS} jobs done in 12 minutes`);
    // Jobs go out as the workers take them (at most WINDOW waiting), so the kills fall every 100.
    const upTo = Math.min(JOBS, done + WINDOW);
    while (jobIds.length < upTo) jobIds.push(await send(jobIds.length));
    if (done >= nextKill && nextKill < JOBS && !restarting) {
      const index = kills % WORKERS;
      const victim = workers[index]!;
      const exited = new Promise((resolve) => victim.once('exit', resolve));
      victim.kill('SIGKILL');
      await exited;
      kills++;
      killedAt.push(done);
      nextKill += KILL_EVERY;
      // Started again on its host while the other two carry on.
      restarting = startOn(index).then((child) => {
        workers[index] = child;
        restarting = undefined;
      });
    }
  }
  await restarting;
  const elapsedS = (Date.now() - began) / 1000;

  const jobs = await q.sql<{ output: JobOutput; retry_count: number }>(
    'SELECT output, retry_count FROM pgboss.job WHERE id = ANY($1::uuid[])',
    [jobIds],
  );
  expect(jobs).toHaveLength(JOBS);
  const envelopes = jobs.map((job) => ('envelope' in job.output ? job.output.envelope : undefined));
  expect(envelopes.filter((envelope) => !envelope?.ok)).toEqual([]);
  // Counted in the tool's own file: each request id once, nothing else.
  const posted = postedIds(posts);
  const missing = ids.filter((id) => !posted.includes(id));
  const doubled = posted.filter((id, i) => posted.indexOf(id) !== i);
  expect({ missing, doubled, lines: posted.length }).toEqual({ missing: [], doubled: [], lines: JOBS });
  const existing = envelopes.filter(
    (envelope) => envelope && 'effect' in envelope && envelope.effect === 'existing',
  ).length;
  const retried = jobs.filter((job) => job.retry_count > 0).length;
  console.log(
    `load: ${JOBS} jobs on ${WORKERS} worker hosts in ${elapsedS.toFixed(1)} s (${(JOBS / elapsedS).toFixed(1)} jobs/s), ` +
      `${kills} kill -9 (at ${killedAt.join(', ')} jobs done), ${retried} jobs run again, ${existing} answered from the settle read, 0 lost, 0 doubled`,
  );
  expect(kills).toBe(JOBS / KILL_EVERY - 1);
});
