/**
 * The job queue against a real PostgreSQL this test starts, and `lift worker` processes that
 * take its jobs (each with its own home, as on its own host): jobs named by their request
 * id run once however often they are sent, a worker killed with SIGKILL mid-job has its job
 * run again only after the settle read, and a server restart in the middle of a load loses
 * nothing and doubles nothing. The posts are counted in the tool's own file.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, isPending } from '../../src/contract/envelope.js';
import { JobQueue } from '../../src/queue/queue.js';
import { WorkerRegistry } from '../../src/queue/workers.js';
import { BUSY_TRIES } from '../../src/worker/run-job.js';
import { lift } from '../support/cli.js';
import { type SharedPostgres, startSharedPostgres } from '../support/postgres-server.js';
import { tempDir } from '../support/temp.js';
import { busyRefusalsOf, postsOf, writerOf as writerPid } from './queue-tools.js';
import { startWorker as startOne, stopWorkers } from './worker-process.js';

const dir = tempDir('lift-queue-');
const posts = join(dir.path, 'posts.log');
let server: SharedPostgres;
let queue: JobQueue;
const workers: ChildProcess[] = [];

function env(home: string): Record<string, string> {
  return { LIFT_HOME: join(dir.path, home), LIFT_TEST_POSTS: posts, LIFT_POSTGRES_URL: server.url() };
}

/** A `lift worker` in its own home; resolves once it takes jobs. */
async function startWorker(
  home: string,
  options: { args?: string[]; onOutput?: (text: string) => void } = {},
): Promise<ChildProcess> {
  const child = await startOne({ cwd: dir.path, env: env(home), label: home, ...options });
  workers.push(child);
  return child;
}

function countOf(requestId: string): number {
  return postsOf(posts, requestId);
}

/** The pid that wrote the post of `requestId`, once it landed. */
function writerOf(requestId: string): number | undefined {
  return writerPid(posts, requestId);
}

async function until(what: string, done: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  for (const end = Date.now() + ms; !(await done()); await sleep(50)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

function post(requestId: string, extra: Record<string, number> = {}): Promise<Envelope> {
  return queue.call({
    kind: 'call',
    request_id: requestId,
    tool: 'post_write',
    input: { text: 'hello', request_id: requestId, ...extra },
  });
}

beforeAll(async () => {
  server = await startSharedPostgres();
  const tools = join(import.meta.dirname, 'queue-tools.ts');
  writeFileSync(join(dir.path, 'lift.config.json'), JSON.stringify({ tools: [tools] }));
  writeFileSync(posts, '');
  queue = await JobQueue.open(server.url());
}, 120_000);

afterEach(async () => {
  await stopWorkers(workers);
});

afterAll(async () => {
  await queue?.close();
  server?.stop();
  dir.remove();
});

describe('lift worker on the shared queue', () => {
  it('prepares its registry from many workers starting at once on a new database', async () => {
    server.admin('CREATE DATABASE fresh OWNER lift');
    const url = server.url().replace(/\/lift$/, '/fresh');
    const queues = await Promise.all(Array.from({ length: 6 }, () => JobQueue.open(url)));
    try {
      // Before the registry took a lock, two of these raced on CREATE TABLE (CI: a worker did not start).
      for (let round = 0; round < 3; round++) {
        if (round > 0) await queues[0]?.sql('DROP TABLE lift_workers, lift_held_jobs');
        await Promise.all(queues.map((each) => new WorkerRegistry(each).prepare()));
      }
      expect(await queues[0]?.sql('SELECT count(*)::int AS n FROM lift_workers')).toEqual([{ n: 0 }]);
    } finally {
      await Promise.all(queues.map((each) => each.close()));
    }
  }, 120_000);

  it('runs each request id once on two workers, duplicates sent at the same moment included', async () => {
    await Promise.all([startWorker('host-a'), startWorker('host-b')]);
    const ids = Array.from({ length: 24 }, (_, i) => `dup-${i}`);
    // Every request id is sent twice at once: one job, one post, both callers get its envelope.
    const envelopes = await Promise.all(
      ids.flatMap((id) => [post(id, { hold_ms: 100 }), post(id, { hold_ms: 100 })]),
    );
    expect(envelopes.every((envelope) => envelope.ok)).toBe(true);
    for (const id of ids) expect(countOf(id), id).toBe(1);
    const pids = new Set(ids.map(writerOf));
    expect(pids.size).toBe(2);

    // lift call --queue: the CLI sends the job and prints the worker's envelope; again, it is the ledger's.
    const call = (extra: string[] = []) =>
      lift(['call', 'post_write', '--input', '{"text":"cli","request_id":"cli-1"}', '--queue', ...extra], {
        cwd: dir.path,
        env: env('caller'),
        timeoutMs: 90_000,
      });
    const first = await call();
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ ok: true, effect: 'changed' });
    const again = await call(['--request-id', 'cli-1']);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true });
    expect(countOf('cli-1')).toBe(1);
  }, 240_000);

  it('puts a call the system was too busy to start back on the queue, for a few tries, then answers the refusal', async () => {
    await startWorker('host-busy');
    const call = (requestId: string, busyTries: number) =>
      queue.call({
        kind: 'call',
        request_id: requestId,
        tool: 'post_when_free',
        input: { text: 'when free', request_id: requestId, busy_tries: busyTries },
      });
    // Busy twice, then free: the job's answer is the post, made once.
    expect(await call('busy-twice', 2)).toMatchObject({ ok: true, fields: { request_id: 'busy-twice' } });
    expect(busyRefusalsOf(posts, 'busy-twice')).toBe(2);
    expect(countOf('busy-twice')).toBe(1);
    // Busy for longer than the queue tries: the refusal is the answer, and nothing was posted.
    const refused = await call('busy-always', 20);
    expect(refused).toMatchObject({ ok: false, error: { code: 'TIMEOUT', outcome: 'not_started' } });
    expect(busyRefusalsOf(posts, 'busy-always')).toBe(BUSY_TRIES);
    expect(countOf('busy-always')).toBe(0);
  }, 120_000);

  it('runs the job of a worker killed with SIGKILL again only after the settle read: no second post', async () => {
    const a = await startWorker('host-a');
    const b = await startWorker('host-b');
    // Killed after the write landed: the settle read finds it, the answer is the landed post.
    const landed = post('kill-after-write', { hold_ms: 60_000 });
    await until('the post to land', () => countOf('kill-after-write') === 1);
    const writer = writerOf('kill-after-write');
    const victim = writer === a.pid ? a : b;
    victim.kill('SIGKILL');
    const envelope = await landed;
    expect(envelope).toMatchObject({ ok: true, effect: 'existing' });
    expect(countOf('kill-after-write')).toBe(1);

    // Killed before the write: the settle read finds nothing, and the post is made once.
    const survivor = victim === a ? b : a;
    const replacement = await startWorker('host-c');
    const before = post('kill-before-write', { wait_ms: 4_000 });
    let holder: number | undefined;
    await until('a worker to hold the job', async () => {
      const rows = await queue.sql<{ pid: number }>(
        `SELECT pid FROM lift_workers WHERE state = 'running' AND jobs <> '{}'`,
      );
      holder = rows[0]?.pid;
      return holder !== undefined;
    });
    (holder === survivor.pid ? survivor : replacement).kill('SIGKILL');
    const created = await before;
    expect(created).toMatchObject({ ok: true });
    expect(countOf('kill-before-write')).toBe(1);
  }, 240_000);

  it('on SIGTERM finishes what it can within its grace and hands back the rest untouched, for another worker', async () => {
    let said = '';
    const a = await startWorker('host-a', {
      args: ['--concurrency', '4', '--grace-s', '3'],
      onOutput: (text) => {
        said += text;
      },
    });
    // Two jobs end well within the grace; two wait 15 s before they write, far past it.
    const quick = ['term-quick-1', 'term-quick-2'];
    const slow = ['term-slow-1', 'term-slow-2'];
    const results = Promise.all([
      ...quick.map((id) => post(id, { hold_ms: 1_000 })),
      ...slow.map((id) => post(id, { wait_ms: 15_000 })),
    ]);
    await until('the worker to hold all four jobs', async () => {
      const rows = await queue.sql<{ n: number }>(
        `SELECT cardinality(jobs) AS n FROM lift_workers WHERE pid = $1 AND state = 'running'`,
        [a.pid],
      );
      return rows[0]?.n === 4;
    });
    const exited = new Promise<number | null>((resolve) => a.once('exit', resolve));
    a.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(said).toContain('handed back 2 job(s)');
    // Handed back before they wrote: nothing of theirs landed on the stopped worker.
    for (const id of quick) expect(writerOf(id), id).toBe(a.pid);
    for (const id of slow) expect(countOf(id), id).toBe(0);

    const b = await startWorker('host-b');
    const envelopes = await results;
    expect(envelopes.every((envelope) => envelope.ok)).toBe(true);
    for (const id of [...quick, ...slow]) expect(countOf(id), id).toBe(1);
    for (const id of slow) expect(writerOf(id), id).toBe(b.pid);
  }, 240_000);

  it('puts back a job whose worker died between taking it and announcing it, after a lease', async () => {
    await queue.enqueue({
      kind: 'call',
      request_id: 'unannounced',
      tool: 'post_write',
      input: { text: 'taken', request_id: 'unannounced' },
    });
    // A worker that took the job and died before its registry row named it: active, held by nobody.
    const [taken] = await queue.fetch(1);
    expect(taken?.data.request_id).toBe('unannounced');
    await startWorker('host-a');
    // Before, it waited for pg-boss's expiry (15 min); now a lease (30 s) and a heartbeat.
    const output = await queue.result('unannounced', { timeoutMs: 120_000 });
    expect(output).toMatchObject({ envelope: { ok: true } });
    expect(countOf('unannounced')).toBe(1);
  }, 240_000);

  it('runs a queued call held for review once, on a worker, when two people approve it at once', async () => {
    await startWorker('host-a');
    const held = await queue.call({
      kind: 'call',
      request_id: 'held-1',
      tool: 'post_reviewed',
      input: { text: 'reviewed', request_id: 'held-1' },
    });
    expect(isPending(held)).toBe(true);
    const approvalId = isPending(held) ? held.pending.approval_id : '';
    const approve = () =>
      lift(['approve', approvalId, '--json'], { cwd: dir.path, env: env('approver'), timeoutMs: 90_000 });
    const [first, second] = await Promise.all([approve(), approve()]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ ok: true });
    expect(JSON.parse(second.stdout)).toEqual(JSON.parse(first.stdout));
    expect(countOf('held-1')).toBe(1);
  }, 240_000);

  it('answers a retried request id whose held call already ran with existing, as the embedded store does', async () => {
    await startWorker('host-a');
    const answers: Record<string, unknown>[] = [];
    for (const shared of [true, false]) {
      const requestId = shared ? 'held-retry-queue' : 'held-retry-embedded';
      const where = shared ? env('retrier') : { ...env('embedded'), LIFT_POSTGRES_URL: '' };
      const call = () =>
        lift(
          [
            ...['call', 'post_reviewed', '--input', JSON.stringify({ text: 'twice', request_id: requestId })],
            ...(shared ? ['--queue'] : []),
          ],
          { cwd: dir.path, env: where, timeoutMs: 90_000 },
        );
      const held = JSON.parse((await call()).stdout) as { pending: { approval_id: string } };
      const approved = await lift(['approve', held.pending.approval_id, '--json'], {
        cwd: dir.path,
        env: where,
        timeoutMs: 90_000,
      });
      expect(approved.code, approved.stderr).toBe(0);
      const again = await call();
      expect(again.code, again.stderr).toBe(0);
      answers.push(JSON.parse(again.stdout) as Record<string, unknown>);
      expect(countOf(requestId)).toBe(1);
    }
    const [queued, embedded] = answers;
    expect(queued).toMatchObject({
      ok: true,
      effect: 'existing',
      fields: { request_id: 'held-retry-queue' },
    });
    expect(embedded).toMatchObject({ ok: true, effect: 'existing' });
    expect(Object.keys(queued ?? {}).sort()).toEqual(Object.keys(embedded ?? {}).sort());
    expect(String(queued?.summary)).toMatch(/^Already done: /);
  }, 240_000);

  it('refuses an input nested 5,000 deep sent with --queue as BAD_INPUT, before any job is sent', async () => {
    // Written as text: JSON.stringify itself overflows on such a value.
    let deep = '"bottom"';
    for (let level = 0; level < 5_000; level++) deep = `{"a":${deep}}`;
    const input = `{"text":"deep","request_id":"deep-1","extra":${deep}}`;
    const refused = await lift(['call', 'post_write', '--input', input, '--queue'], {
      cwd: dir.path,
      env: env('deep'),
      timeoutMs: 90_000,
    });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'BAD_INPUT', outcome: 'not_started' });
    expect(
      await queue.sql("SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'request_id' = $1", ['deep-1']),
    ).toEqual([{ n: 0 }]);
  }, 120_000);

  it('goes on through a PostgreSQL restart in the middle of a load: nothing lost, nothing doubled', async () => {
    await Promise.all([startWorker('host-a'), startWorker('host-b')]);
    const ids = Array.from({ length: 40 }, (_, i) => `restart-${i}`);
    const results = Promise.all(ids.map((id) => post(id, { hold_ms: 50 })));
    await until('some jobs to be done', () => ids.filter((id) => countOf(id) > 0).length >= 5);
    await server.restart();
    const envelopes = await results;
    expect(envelopes.every((envelope) => envelope.ok)).toBe(true);
    for (const id of ids) expect(countOf(id), id).toBe(1);
  }, 240_000);
});
