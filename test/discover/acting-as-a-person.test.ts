import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { CapabilityStore } from '../../src/capability/store.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { type Script, ScriptedExplorer } from '../../src/discover/explorers/scripted.js';
import { runDiscovery } from '../../src/discover/run.js';
import type { DiscoveryTask } from '../../src/discover/types.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempHome } from '../replay/helpers.js';
import { tempDir } from '../support/temp.js';

// A small wiki: an edit form whose textarea holds the page's text, saved by a button; a new
// page form; the page itself, one paragraph per line. Its pages live in `pages`, which each
// test reads as the wiki's own database.
const pages = new Map<string, string>();
const SEED: Record<string, string> = {
  Sandbox: 'Line one\nLine two',
  Runbook: '== Restart ==\nStop the service first.',
  'Release plan': 'Freeze on Monday',
};

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const html = (title: string, body: string) =>
  `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><main>${body}</main>`;

function wiki(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const title = url.searchParams.get('title') ?? '';
  const send = (body: string) =>
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  if (url.pathname === '/delete') {
    pages.delete(title);
    response.writeHead(303, { location: '/pages' }).end();
    return;
  }
  if (url.pathname === '/pages') {
    // Each page with its own Delete button, all named alike and in no table.
    const items = [...pages.keys()].map(
      (name) =>
        `<li>${escapeHtml(name)} <form action="/delete" method="get"><input type="hidden" name="title" value="${escapeHtml(name)}"><button type="submit">Delete</button></form></li>`,
    );
    send(html('All pages', `<h1>All pages</h1><ul>${items.join('')}</ul>`));
    return;
  }
  if (url.pathname === '/save' || url.pathname === '/create') {
    pages.set(title, (url.searchParams.get('text') ?? '').replace(/\r\n/g, '\n'));
    response.writeHead(303, { location: `/page?title=${encodeURIComponent(title)}` }).end();
    return;
  }
  if (url.pathname === '/edit') {
    send(
      html(
        `Editing ${title}`,
        `<h1>Editing ${escapeHtml(title)}</h1><form action="/save" method="get">
<input type="hidden" name="title" value="${escapeHtml(title)}">
<label for="text">Page text</label><textarea id="text" name="text" rows="10">${escapeHtml(pages.get(title) ?? '')}</textarea>
<button type="submit">Save page</button></form>`,
      ),
    );
    return;
  }
  if (url.pathname === '/new') {
    send(
      html(
        'New page',
        `<h1>New page</h1><form action="/create" method="get">
<label for="title">Title</label><input id="title" name="title">
<label for="text">Page text</label><textarea id="text" name="text" rows="10"></textarea>
<button type="submit">Create page</button></form>`,
      ),
    );
    return;
  }
  if (url.pathname === '/page') {
    const lines = (pages.get(title) ?? '').split('\n').filter((line) => line.trim() !== '');
    send(
      html(
        title,
        `<h1>${escapeHtml(title)}</h1>${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}`,
      ),
    );
    return;
  }
  send(html('Wiki', '<h1>Wiki</h1><p>Welcome.</p>'));
}

let server: Server;
let origin: string;
let browser: Browser;
let store: Store;
let capabilities: CapabilityStore;
const home = tempHome();
const evidence = tempDir('lift-acting-evidence-');

beforeAll(async () => {
  server = createServer(wiki);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  store = openStore(home.home, {});
  capabilities = new CapabilityStore(store.capabilities);
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await store?.close();
  home.cleanup();
  evidence.remove();
});
beforeEach(() => {
  pages.clear();
  for (const [title, text] of Object.entries(SEED)) pages.set(title, text);
});

const textarea = { frame: [], locator: { by: 'label', label: 'Page text' } };
const heading = (input: string) => ({
  frame: [],
  locator: { by: 'role', role: 'heading', name: `{{input.${input}}}` },
});
const shownLine = (input: string) => ({ frame: [], locator: { by: 'text', text: `{{input.${input}}}` } });

async function discover(task: Omit<DiscoveryTask, 'outcomes'>, calls: Script['calls'], attended = false) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const explorer = new ScriptedExplorer({ explorer: 'scripted', calls });
  try {
    const result = await runDiscovery({
      store,
      capabilities,
      page,
      policy: parsePolicy({
        version: 1,
        origins: [origin],
        budgets: { steps: 30, seconds: 90, rejected: 5 },
      }),
      task: { ...task, outcomes: ['found'] },
      explorer,
      attended,
      liftVersion: LIFT_VERSION,
    });
    return { result, replies: explorer.replies };
  } finally {
    await context.close();
  }
}

async function replay(capability: Capability, inputs: Record<string, string>) {
  const page = await browser.newPage();
  try {
    return await replayCapability(capability, inputs, {
      page,
      evidenceDir: evidence.path,
      stepTimeoutMs: 5_000,
    });
  } finally {
    await page.close();
  }
}

describe('a line appended to a wiki page (caret key, then type with clear: false)', () => {
  const task = {
    name: 'wiki_line_append',
    intent: 'Append a line to the end of a wiki page, keeping its text',
    inputs: [
      { name: 'page', type: 'string' as const },
      { name: 'line', type: 'string' as const },
    ],
    outputs: [{ name: 'pageUrl', type: 'string' as const }],
    bound: { page: 'Sandbox', line: 'Added by the explorer' },
  };

  it('compiles the append and replays it on other pages, keeping what each held', {
    timeout: 180_000,
  }, async () => {
    const { result, replies } = await discover({ ...task, startUrl: `${origin}/` }, [
      { tool: 'act', args: { actions: [{ op: 'navigate', url: '/edit?title={{input.page}}' }] } },
      { tool: 'observe', args: {} },
      {
        tool: 'act',
        args: {
          actions: [
            { op: 'press', target: textarea, key: 'Control+End' },
            { op: 'type', target: textarea, value: { template: '\n{{line}}' }, clear: false },
            {
              op: 'click',
              target: { frame: [], locator: { by: 'role', role: 'button', name: 'Save page' } },
            },
          ],
        },
      },
      {
        tool: 'complete',
        args: {
          outputs: ['pageUrl'],
          checkpoint: {
            target: heading('page'),
            input: 'page',
            values: [{ target: shownLine('line'), input: 'line' }],
          },
          from: { pageUrl: { url: {} } },
        },
      },
    ]);
    expect(result.status.outcome, JSON.stringify(replies.at(-1))).toBe('completed');
    expect(pages.get('Sandbox')).toBe('Line one\nLine two\nAdded by the explorer');
    const capability = result.capability!;
    expect(capability.steps.map((step) => step.op)).toEqual(['navigate', 'press', 'type', 'click']);
    expect(capability.steps[1]).toMatchObject({ key: 'Control+End' });
    expect(capability.steps[2]).toMatchObject({ clear: false, value: { template: '\n{{input.line}}' } });

    for (const [page, line] of [
      ['Runbook', 'Then start it again.'],
      ['Release plan', 'Ship on Friday'],
      ['Sandbox', 'A second line from replay'],
    ] as const) {
      const before = pages.get(page)!;
      const answer = await replay(capability, { page, line });
      expect(answer.outcome, `${page}: ${JSON.stringify(answer)}`).toBe('found');
      expect(pages.get(page)).toBe(`${before}\n${line}`);
    }
  });
});

describe('a new page written from a template of several inputs and text', () => {
  it('compiles the template and replays it with other inputs, line breaks kept', {
    timeout: 180_000,
  }, async () => {
    const template = '====== {{title}} ======\n\n{{body}}\n\n[[Category:Notes]]';
    const { result, replies } = await discover(
      {
        name: 'wiki_page_create',
        intent: 'Create a wiki page with a heading and a body',
        inputs: [
          { name: 'title', type: 'string' },
          { name: 'body', type: 'string' },
        ],
        outputs: [{ name: 'pageUrl', type: 'string' }],
        bound: { title: 'Coffee machine', body: 'Descale it every month' },
        startUrl: `${origin}/new`,
      },
      [
        { tool: 'observe', args: {} },
        {
          tool: 'act',
          args: {
            actions: [
              {
                op: 'fill',
                target: { frame: [], locator: { by: 'label', label: 'Title' } },
                value: { input: 'title' },
              },
              { op: 'fill', target: textarea, value: { template } },
              {
                op: 'click',
                target: { frame: [], locator: { by: 'role', role: 'button', name: 'Create page' } },
              },
            ],
          },
        },
        {
          tool: 'complete',
          args: {
            outputs: ['pageUrl'],
            checkpoint: {
              target: heading('title'),
              input: 'title',
              values: [{ target: shownLine('body'), input: 'body' }],
            },
            from: { pageUrl: { url: {} } },
          },
        },
      ],
    );
    expect(result.status.outcome, JSON.stringify(replies.at(-1))).toBe('completed');
    const capability = result.capability!;
    expect(capability.steps[1]).toMatchObject({
      op: 'fill',
      value: { template: '====== {{input.title}} ======\n\n{{input.body}}\n\n[[Category:Notes]]' },
    });
    for (const inputs of [
      { title: 'Printer', body: 'Toner is in the cupboard' },
      { title: 'Parking', body: 'Level 2 is for visitors' },
    ]) {
      const answer = await replay(capability, inputs);
      expect(answer.outcome, JSON.stringify(answer)).toBe('found');
      expect(pages.get(inputs.title)).toBe(
        `====== ${inputs.title} ======\n\n${inputs.body}\n\n[[Category:Notes]]`,
      );
    }
  });
});

describe('keys discovery cannot compile', () => {
  it('refuses a shortcut before anything is pressed, naming the keys a capability presses', async () => {
    const { replies } = await discover(
      {
        name: 'wiki_page_wipe',
        intent: 'Try a shortcut',
        inputs: [{ name: 'page', type: 'string' }],
        outputs: [{ name: 'pageUrl', type: 'string' }],
        bound: { page: 'Sandbox' },
        startUrl: `${origin}/edit?title=Sandbox`,
      },
      [
        {
          tool: 'act',
          args: {
            actions: [
              { op: 'press', target: textarea, key: 'Control+A' },
              { op: 'press', target: textarea, key: 'Delete' },
            ],
          },
        },
      ],
    );
    const refused = replies[0]!.reply as { ok: boolean; error?: string; hint?: string };
    expect(refused).toMatchObject({ ok: false, error: 'BAD_INPUT' });
    expect(refused.hint).toContain('Control+End');
  });
});

describe('an irreversible click on one of several alike', () => {
  it('is refused before it acts: nothing is deleted, and the reply says to name it by its row', async () => {
    const { replies } = await discover(
      {
        name: 'wiki_page_delete',
        intent: 'Delete a wiki page',
        inputs: [{ name: 'page', type: 'string' }],
        outputs: [{ name: 'pageUrl', type: 'string' }],
        bound: { page: 'Runbook' },
        startUrl: `${origin}/pages`,
      },
      [
        {
          tool: 'act',
          args: {
            actions: [
              {
                op: 'click',
                target: { frame: [], locator: { by: 'role', role: 'button', name: 'Delete' }, nth: 2 },
              },
            ],
          },
        },
      ],
      true,
    );
    const reply = replies[0]!.reply as { ok: boolean; results: Array<Record<string, unknown>> };
    expect(reply.results[0]).toMatchObject({ status: 'rejected', code: 'BAD_INPUT' });
    expect(String(reply.results[0]!.hint)).toContain('"by":"cell"');
    expect([...pages.keys()].sort()).toEqual(Object.keys(SEED).sort());
  });
});
