import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { ScriptedExplorer } from '../../src/discover/explorers/scripted.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import type { Target } from '../../src/rungs/ui/locator.js';
import { LiveExplorer } from '../real-apps/explore.js';
import { tempDir } from '../support/temp.js';
import { discoverOnOwnPage } from './own-page-discovery.js';

// Checkpoints complete compiles: one on an unnamed box (its nth kept, as the fill's is), and
// one that compares the new record's id, taken from the flash message, with the list's row.
const codes = (query: URLSearchParams) => `<!doctype html><title>Codes</title><main><h1>Codes</h1>
<form action="/codes/saved"><p><input name="a" value="${query.get('a') ?? ''}"> <input name="b" value="${query.get('b') ?? ''}"></p>
<button>Save</button></form>${query.has('b') ? '<p role="status">Saved</p>' : ''}</main>`;

/**
 * A request desk as such apps are: the form is posted, the server answers with a redirect to
 * the list, whose URL names the record made (`?created=R-4`), shown as a flash message.
 * `?wrong=1` makes the message name another id than the list (a broken app).
 */
const made: string[] = [];
function requests(url: URL): string {
  const created = url.searchParams.get('created');
  const wrong = url.searchParams.has('wrong');
  const rows = made.map((subject, index) => `<tr><td>R-${index + 1}</td><td>${subject}</td></tr>`).join('');
  return `<!doctype html><title>Requests</title><main><h1>Requests</h1>
${created ? `<p role="status">Request ${created} created</p>` : ''}
<form method="post" action="/requests/create${wrong ? '?wrong=1' : ''}"><label>Subject <input name="subject"></label>
<button>Create request</button></form>
<table><tr><th>Id</th><th>Subject</th></tr>${rows}</table></main>`;
}

/** The desk's server: a POST creates and redirects (post, redirect, get), every GET is a page. */
async function serveDesk(): Promise<{ origin: string; close(): Promise<void> }> {
  const desk = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'POST' && url.pathname === '/requests/create') {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        made.push(new URLSearchParams(body).get('subject') ?? '');
        const flashed = made.length + (url.searchParams.has('wrong') ? 1 : 0);
        response.writeHead(303, { location: `/requests?created=R-${flashed}` }).end();
      });
      return;
    }
    const body = url.pathname.startsWith('/codes') ? codes(url.searchParams) : requests(url);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => desk.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(desk.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => desk.close(() => resolve())),
  };
}

let server: Awaited<ReturnType<typeof serveDesk>>;
let browser: Browser;
const evidence = tempDir('lift-checkpoint-reads-');

beforeAll(async () => {
  server = await serveDesk();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  evidence.remove();
});

async function replay(capability: Capability, inputs: Record<string, string>, path?: string) {
  const page = await browser.newPage();
  try {
    const replayed = path
      ? { ...capability, preconditions: { ...capability.preconditions, path } }
      : capability;
    return await replayCapability(replayed, inputs, {
      page,
      layoutTolerant: true,
      evidenceDir: evidence.path,
      stepTimeoutMs: 3_000,
    });
  } finally {
    await page.close();
  }
}

/** The refs observe printed for the page's unnamed text boxes, in order. */
function unnamedBoxes(observation: string): string[] {
  return [...observation.matchAll(/\[(e\d+)\] textbox(?! ")/g)].map((match) => match[1]!);
}

describe('a checkpoint on an unnamed box named by its ref', () => {
  it('keeps the nth the fill kept, and reads the box it names on another input', {
    timeout: 120_000,
  }, async () => {
    const explorer = new LiveExplorer(async (moves) => {
      await moves.observe();
      // The boxes by position (an action's ref is looked up within half a second, which a
      // loaded machine can miss); the checkpoint below is named by its ref, as a model names it.
      const box = (nth: number) => ({ frame: [], locator: { by: 'role', role: 'textbox', name: '' }, nth });
      await moves.act([
        { op: 'fill', target: box(1), value: 'main' },
        { op: 'fill', target: box(2), value: { input: 'code' } },
      ]);
      const form = await moves.observe();
      await moves.act([{ op: 'click', target: moves.ref(form, 'button', 'Save') }]);
      const saved = unnamedBoxes(await moves.observe())[1];
      await moves.act([
        {
          op: 'read',
          target: { frame: [], locator: { by: 'role', role: 'status', name: '' } },
          as: 'status',
        },
      ]);
      await moves.complete({ outputs: ['status'], checkpoint: { target: { ref: saved }, input: 'code' } });
    });
    const { capability } = await discoverOnOwnPage(
      browser,
      server.origin,
      {
        name: 'backup_code_save',
        intent: 'Save the backup code',
        inputs: [{ name: 'code', type: 'string' }],
        outputs: [{ name: 'status', type: 'string' }],
        bound: { code: 'Q-1' },
        startUrl: `${server.origin}/codes/edit`,
        outcomes: ['found'],
      },
      explorer,
    );
    expect(capability, JSON.stringify(explorer.log.at(-1))).toBeDefined();
    expect(capability!.checkpoint.target.nth).toBe(2);
    const result = await replay(capability!, { code: 'Z-9' });
    expect(result).toMatchObject({ outcome: 'found', checkpoint: { passed: true, actual: 'Z-9' } });
  });
});

describe('a checkpoint that compares a created record with its id', () => {
  const subject = {
    frame: [],
    locator: { by: 'cell', key: 'Subject', row: '{{input.subject}}', column: 'Subject' },
  };
  const idOfSubject: Target = {
    frame: [],
    locator: { by: 'cell', key: 'Subject', row: '{{input.subject}}', column: 'Id' },
  };
  let capability: Capability;

  beforeAll(async () => {
    const explorer = new ScriptedExplorer({
      explorer: 'scripted',
      calls: [
        { tool: 'observe', args: {} },
        {
          tool: 'act',
          args: {
            actions: [
              {
                op: 'fill',
                target: { frame: [], locator: { by: 'label', label: 'Subject' } },
                value: { input: 'subject' },
              },
              {
                op: 'click',
                target: { frame: [], locator: { by: 'role', role: 'button', name: 'Create request' } },
              },
            ],
          },
        },
        {
          tool: 'complete',
          args: {
            outputs: ['requestId'],
            from: { requestId: { message: { pattern: 'Request (R-\\d+) created' } } },
            checkpoint: {
              target: subject,
              input: 'subject',
              values: [{ target: idOfSubject, output: 'requestId' }],
            },
          },
        },
      ],
    });
    const found = await discoverOnOwnPage(
      browser,
      server.origin,
      {
        name: 'service_request_create',
        intent: 'Make a service request and return its id',
        inputs: [{ name: 'subject', type: 'string' }],
        outputs: [{ name: 'requestId', type: 'string' }],
        bound: { subject: 'Toner for floor 2' },
        startUrl: `${server.origin}/requests`,
        outcomes: ['found'],
      },
      explorer,
    );
    if (!found.capability) throw new Error(JSON.stringify(explorer.replies.at(-1)));
    capability = found.capability;
  }, 120_000);

  it('compiles the comparison with the output, read before the checkpoint', () => {
    expect(capability.checkpoint.values).toEqual([
      expect.objectContaining({ equals: { output: 'requestId' }, match: 'exact' }),
    ]);
  });

  it('passes when the list shows the id the message gave, and returns it', { timeout: 60_000 }, async () => {
    const result = await replay(capability, { subject: 'Chairs for room 4' });
    expect(result).toMatchObject({ outcome: 'found', outputs: { requestId: `R-${made.length}` } });
    expect(made.at(-1)).toBe('Chairs for room 4');
  });

  it('fails CHECK_FAILED, outcome unknown, when the message names another record than the list', {
    timeout: 60_000,
  }, async () => {
    const failure = await replay(capability, { subject: 'Desk lamp' }, '/requests?wrong=1').catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: 'CHECK_FAILED', outcome: 'unknown' });
    expect(String((failure as Error).message)).toContain(`not the requested 'R-${made.length + 1}'`);
  });
});
