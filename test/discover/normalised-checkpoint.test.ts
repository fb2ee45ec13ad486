import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { ScriptedExplorer } from '../../src/discover/explorers/scripted.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import type { Target } from '../../src/rungs/ui/locator.js';
import { tempDir } from '../support/temp.js';
import { discoverOnOwnPage } from './own-page-discovery.js';

// A timesheet that writes values its own way, as issue 41 saw: hours typed as 1.5 are listed
// as 1:30, groups typed as editors,user as "editors, user". A checkpoint that compares them
// exactly reads wrong on every replay; the explorer names how to compare, and the rehearsal
// at complete proves it before the capability exists.
interface Entry {
  task: string;
  hours: string;
  groups: string;
}
const entries: Entry[] = [];
/** `?floor=1` makes the app store whole hours (a broken app: 2.25 listed as 2:00). */
function clock(hours: string, floor: boolean): string {
  const value = Number(hours);
  const minutes = floor ? Math.floor(value) * 60 : Math.round(value * 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}
function timesheet(url: URL): string {
  const floor = url.searchParams.has('floor');
  const rows = entries
    .map((entry) => `<tr><td>${entry.task}</td><td>${entry.hours}</td><td>${entry.groups}</td></tr>`)
    .join('');
  return `<!doctype html><title>Timesheet</title><main><h1>Timesheet</h1>
<form method="post" action="/log${floor ? '?floor=1' : ''}"><label>Task <input name="task"></label>
<label>Hours <input name="hours"></label><label>Groups <input name="groups"></label><button>Log time</button></form>
<table><tr><th>Task</th><th>Hours</th><th>Groups</th></tr>${rows}</table></main>`;
}

async function serveTimesheet(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'POST' && url.pathname === '/log') {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        const form = new URLSearchParams(body);
        entries.push({
          task: form.get('task') ?? '',
          hours: clock(form.get('hours') ?? '0', url.searchParams.has('floor')),
          groups: (form.get('groups') ?? '').split(',').join(', '),
        });
        response.writeHead(303, { location: '/timesheet' }).end();
      });
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(timesheet(url));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let server: Awaited<ReturnType<typeof serveTimesheet>>;
let browser: Browser;
const evidence = tempDir('lift-normalised-checkpoint-');
beforeAll(async () => {
  server = await serveTimesheet();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  evidence.remove();
});

const cell = (column: string): Target => ({
  frame: [],
  locator: { by: 'cell', key: 'Task', row: '{{input.task}}', column },
});
const field = (label: string): Target => ({ frame: [], locator: { by: 'label', label } });

/** Logs time through the act tool, then completes with the checkpoint's values as given. */
async function discover(task: string, values: Record<string, unknown>[]) {
  const explorer = new ScriptedExplorer({
    explorer: 'scripted',
    calls: [
      { tool: 'observe', args: {} },
      {
        tool: 'act',
        args: {
          actions: [
            { op: 'fill', target: field('Task'), value: { input: 'task' } },
            { op: 'fill', target: field('Hours'), value: { input: 'hours' } },
            { op: 'fill', target: field('Groups'), value: { input: 'groups' } },
            { op: 'click', target: { frame: [], locator: { by: 'role', role: 'button', name: 'Log time' } } },
          ],
        },
      },
      { tool: 'observe', args: {} },
      { tool: 'act', args: { actions: [{ op: 'read', target: cell('Hours'), as: 'shown' }] } },
      {
        tool: 'complete',
        args: { outputs: ['shown'], checkpoint: { target: cell('Task'), input: 'task', values } },
      },
    ],
  });
  const found = await discoverOnOwnPage(
    browser,
    server.origin,
    {
      name: 'time_log',
      intent: 'Log hours on a task for some groups',
      inputs: [
        { name: 'task', type: 'string' },
        { name: 'hours', type: 'string' },
        { name: 'groups', type: 'string' },
      ],
      outputs: [{ name: 'shown', type: 'string' }],
      bound: { task, hours: '1.5', groups: 'editors,user' },
      startUrl: `${server.origin}/timesheet`,
      outcomes: ['found'],
    },
    explorer,
  );
  return { ...found, complete: (explorer.replies.at(-1) as { reply: Record<string, unknown> }).reply };
}

async function replay(capability: Capability, inputs: Record<string, string>, path?: string) {
  const page = await browser.newPage();
  try {
    const replayed = path
      ? { ...capability, preconditions: { ...capability.preconditions, path } }
      : capability;
    return await replayCapability(replayed, inputs, {
      page,
      evidenceDir: evidence.path,
      stepTimeoutMs: 3_000,
    });
  } finally {
    await page.close();
  }
}

describe('a checkpoint on values the application writes its own way', () => {
  it('is refused at complete when it compares them exactly: the rehearsal reads 1:30, not 1.5', {
    timeout: 120_000,
  }, async () => {
    const { capability, complete } = await discover('Backups', [
      { target: cell('Hours'), input: 'hours' },
      { target: cell('Groups'), input: 'groups' },
    ]);
    expect(capability).toBeUndefined();
    expect(complete).toMatchObject({ ok: false, error: 'CHECK_FAILED' });
    expect(String(complete.message)).toMatch(/rehearsal failed/);
  });

  let capability: Capability;
  it('compiles with "duration" and a list normalisation, and replays on other values', {
    timeout: 120_000,
  }, async () => {
    const found = await discover('Patching', [
      { target: cell('Hours'), input: 'hours', normalise: 'duration' },
      { target: cell('Groups'), input: 'groups', normalise: { list: { separators: [','] } } },
    ]);
    expect(found.capability, JSON.stringify(found.complete)).toBeDefined();
    capability = found.capability!;
    expect(capability.rehearsal).toMatchObject({ passed: true });
    expect(capability.checkpoint.values).toEqual([
      expect.objectContaining({ equals: { input: 'hours' }, normalise: 'duration' }),
      expect.objectContaining({ equals: { input: 'groups' }, normalise: { list: { separators: [','] } } }),
    ]);
    const result = await replay(capability, { task: 'Upgrades', hours: '2.25', groups: 'admins,staff,user' });
    expect(result).toMatchObject({
      outcome: 'found',
      outputs: { shown: '2:15' },
      checkpoint: { passed: true },
    });
    expect(entries.at(-1)).toEqual({ task: 'Upgrades', hours: '2:15', groups: 'admins, staff, user' });
  });

  it('still fails CHECK_FAILED, outcome unknown, when the application stored another duration', {
    timeout: 60_000,
  }, async () => {
    expect(capability).toBeDefined();
    const failure = await replay(
      capability,
      { task: 'Audit', hours: '2.25', groups: 'admins' },
      '/timesheet?floor=1',
    ).catch((error: unknown) => error);
    expect(entries.at(-1)).toMatchObject({ task: 'Audit', hours: '2:00' });
    expect(failure).toMatchObject({ code: 'CHECK_FAILED', outcome: 'unknown' });
  });
});
