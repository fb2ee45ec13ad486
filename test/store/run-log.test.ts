import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/store/runs.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../support/temp.js';

const CANARY = 'canary-5d2e8f17-run-log';
const dir = tempDir();
afterAll(() => dir.remove());

let homes = 0;
function freshHome(): string {
  homes += 1;
  return join(dir.path, `home-${homes}`);
}

function callEvents(tool: string, ok: boolean, at: string, extra: Record<string, unknown> = {}): RunEvent[] {
  return [
    { t: at, type: 'call-start', tool },
    { t: at, type: 'input-validated', duration_ms: 0.01 },
    { t: at, type: 'call-end', tool, ok, ...(ok ? {} : { code: 'SURFACE_CHANGED' }), ...extra },
  ];
}

/** Records one single call the way `invoke` does, at an ISO time of our choosing. */
function recordCall(
  store: Store,
  tool: string,
  ok: boolean,
  at: string,
  extra?: Record<string, unknown>,
): string {
  const id = store.runs.newId();
  store.runs.record(id, 'call', tool, callEvents(tool, ok, at, extra), ok);
  return id;
}

function isoAt(second: number): string {
  return new Date(Date.UTC(2026, 10, 30, 12, 0, second)).toISOString();
}

describe('run log: single calls indexed a batch at a time', () => {
  it('finds each call by id with its record and its events, before and after the batch is written', () => {
    const store = openStore(freshHome());
    try {
      const id = recordCall(store, 'noop_read', true, isoAt(1));
      // Read before any flush: reads write what is queued first.
      expect(store.runs.get(id)).toMatchObject({
        id,
        kind: 'call',
        title: 'noop_read',
        startedAt: isoAt(1),
        endedAt: isoAt(1),
        ok: true,
        events: 3,
        modelEvents: 0,
      });
      expect(store.runs.events(id).map((event) => event.type)).toEqual([
        'call-start',
        'input-validated',
        'call-end',
      ]);
      const failed = recordCall(store, 'noop_write', false, isoAt(2));
      expect(store.runs.get(failed)?.ok).toBe(false);
      expect(store.runs.events(failed).at(-1)).toMatchObject({ type: 'call-end', code: 'SURFACE_CHANGED' });
      expect(store.runs.get('run_nothing_like_this')).toBeUndefined();
      expect(store.runs.events('run_nothing_like_this')).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('lists calls and long runs together, newest first, across many batches', () => {
    const store = openStore(freshHome());
    try {
      const ids: string[] = [];
      for (let second = 0; second < 40; second++) {
        ids.push(recordCall(store, `tool_${second}`, second % 5 !== 0, isoAt(second)));
        // Every fourth call ends a batch, so the list has to look across batches.
        if (second % 4 === 3) store.runs.flushSync();
      }
      const agent = store.runs.start('agent', 'a long run');
      store.runs.append(agent, [{ t: new Date().toISOString(), type: 'model-called' }]);
      store.runs.end(agent, true);

      const listed = store.runs.list(7);
      expect(listed.map((run) => run.id)).toEqual([agent, ...ids.slice(-6).reverse()]);
      expect(listed[0]).toMatchObject({ kind: 'agent', events: 1, modelEvents: 1, ok: true });
      expect(store.runs.list(100)).toHaveLength(41);
      expect(store.runs.ids(isoAt(30))).toEqual([...ids.slice(30), agent]);
      expect(store.runs.ids()).toEqual([...ids, agent]);
      // Reading every call's events, as the ladder's failure counts do.
      const failedEnds = store.runs
        .ids()
        .flatMap((id) => store.runs.events(id))
        .filter((event) => event.type === 'call-end' && event.ok === false);
      expect(failedEnds).toHaveLength(8);
    } finally {
      store.close();
    }
  });

  it('shows one process the calls another recorded in the same home', () => {
    const home = freshHome();
    const first = openStore(home);
    const second = openStore(home);
    try {
      const mine = recordCall(first, 'from_first', true, isoAt(10));
      const theirs = recordCall(second, 'from_second', true, isoAt(11));
      first.runs.flushSync();
      second.runs.flushSync();
      expect(first.runs.get(theirs)?.title).toBe('from_second');
      expect(second.runs.events(mine).at(0)).toMatchObject({ tool: 'from_first' });
      expect(first.runs.list(2).map((run) => run.id)).toEqual([theirs, mine]);
      // Each log writes a segment file of its own.
      expect(readdirSync(join(home, 'runs')).filter((name) => name.startsWith('calls-'))).toHaveLength(2);
    } finally {
      first.close();
      second.close();
    }
  });

  it('writes no secret value into a title, an event, a segment or the index', () => {
    const home = freshHome();
    const store = openStore(home, { LIFT_SECRET_CANARY: CANARY });
    const id = recordCall(store, `tool ${CANARY}`, false, isoAt(3), { message: `rejected ${CANARY}` });
    const record = store.runs.get(id);
    const events = store.runs.events(id);
    store.close();
    expect(record?.title).toBe('tool [secret:canary]');
    expect(JSON.stringify(events)).toContain('rejected [secret:canary]');
    expect(JSON.stringify(events)).not.toContain(CANARY);
    for (const name of readdirSync(join(home, 'runs')))
      expect(readFileSync(join(home, 'runs', name), 'utf8')).not.toContain(CANARY);
    // Closing moved everything into the database file: the index holds the scrubbed title only.
    const database = readFileSync(join(home, 'lift.db'));
    expect(database.includes('tool [secret:canary]')).toBe(true);
    expect(database.includes(CANARY)).toBe(false);
  });

  it('keeps event lines readable when a secret sits in a number', () => {
    const home = freshHome();
    const store = openStore(home, { LIFT_SECRET_PIN: '482913' });
    try {
      const id = recordCall(store, 'pin_check', true, isoAt(4), { pin: 482913, note: 'pin 482913 accepted' });
      const agent = store.runs.start('agent', 'uses the pin');
      store.runs.append(agent, [{ t: isoAt(5), type: 'action-performed', sent: 482913 }]);
      store.runs.end(agent, true);
      expect(store.runs.events(id).at(-1)).toMatchObject({
        pin: '[secret:pin]',
        note: 'pin [secret:pin] accepted',
      });
      expect(store.runs.events(agent)).toEqual([
        { t: isoAt(5), type: 'action-performed', sent: '[secret:pin]' },
      ]);
      expect(store.runs.list(5).map((run) => run.id)).toEqual([agent, id]);
      for (const name of readdirSync(join(home, 'runs')))
        expect(readFileSync(join(home, 'runs', name), 'utf8')).not.toContain('482913');
    } finally {
      store.close();
    }
  });

  it("still reads calls recorded before batches, one row each pointing at a line-per-event segment, under today's names", () => {
    const home = freshHome();
    const store = openStore(home);
    try {
      const segment = join(home, 'runs', 'calls-legacy-1-abc.jsonl');
      const lines = [
        { run: 'run_legacy_1', t: isoAt(5), type: 'start', tool: 'old_tool' },
        { run: 'run_legacy_2', t: isoAt(6), type: 'start', tool: 'other' },
        { run: 'run_legacy_1', t: isoAt(5), type: 'end', tool: 'old_tool', ok: true },
      ];
      writeFileSync(segment, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
      store.db
        .prepare(
          'INSERT INTO runs (id, kind, title, started_at, ended_at, ok, events, model_events, file) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run('run_legacy_1', 'call', 'old_tool', isoAt(5), isoAt(5), 1, 2, 0, segment);
      expect(store.runs.get('run_legacy_1')?.title).toBe('old_tool');
      expect(store.runs.events('run_legacy_1')).toEqual([
        { t: isoAt(5), type: 'call-start', tool: 'old_tool' },
        { t: isoAt(5), type: 'call-end', tool: 'old_tool', ok: true },
      ]);
    } finally {
      store.close();
    }
  });

  it('writes what is queued when the process exits without closing the log', () => {
    const home = freshHome();
    const storeModule = pathToFileURL(
      join(import.meta.dirname, '..', '..', 'dist', 'store', 'store.js'),
    ).href;
    const script = `
      const { openStore } = await import(${JSON.stringify(storeModule)});
      const store = openStore(${JSON.stringify(home)});
      const ids = [];
      for (let i = 0; i < 3; i++) {
        const id = store.runs.newId();
        store.runs.record(id, 'call', 'exiting_tool', [{ t: new Date().toISOString(), type: 'call-start' }], true);
        ids.push(id);
      }
      console.log(JSON.stringify(ids));
      process.exit(0);
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    const ids = JSON.parse(child.stdout) as string[];
    const store = openStore(home);
    try {
      expect(ids.map((id) => store.runs.get(id)?.title)).toEqual([
        'exiting_tool',
        'exiting_tool',
        'exiting_tool',
      ]);
    } finally {
      store.close();
    }
  });
});
