import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIFT_VERSION } from '../../../src/contract/version.js';
import { compileCapability, type ExecutedAction } from '../../../src/discover/compile.js';
import { replayCapability } from '../../../src/replay/engine.js';
import { performAction, type StepResult } from '../../../src/rungs/ui/act.js';
import type { UiAction } from '../../../src/rungs/ui/actions.js';
import type { Target } from '../../../src/rungs/ui/locator.js';
import { tempDir } from '../../support/temp.js';
import { type PageOnServer, pageOnServer } from './page-on-server.js';

// The two shapes rich-text editors take. A contenteditable div named by a label (CKEditor 5,
// the WordPress block editor's paragraphs); and, like TinyMCE, an iframe titled "Rich Text
// Area" whose document's body is the editable element. Neither has a value: the page copies
// their text into the form when it is sent.
const FORM = `<!doctype html><meta charset="utf-8"><title>New note</title>
<main><h1>New note</h1><form id="note" action="/saved" method="get">
<span id="summary-label">Summary</span>
<div id="summary" contenteditable="true" role="textbox" aria-multiline="true"
  aria-labelledby="summary-label" style="min-height: 2em; border: 1px solid #888"></div>
<p>Details</p>
<iframe id="details" title="Rich Text Area" src="/editor" style="height: 6em; width: 30em"></iframe>
<input type="hidden" name="summary"><input type="hidden" name="details">
<button type="submit">Save note</button>
</form></main><script>
document.getElementById('note').addEventListener('submit', (event) => {
  const form = event.target;
  form.elements.summary.value = document.getElementById('summary').innerText.trim();
  form.elements.details.value =
    document.getElementById('details').contentDocument.body.innerText.trim();
});
</script>`;

const EDITOR = `<!doctype html><html><head><meta charset="utf-8"><title>Editor</title></head>
<body id="tinymce" class="mce-content-body" contenteditable="true" aria-label="Rich Text Area"><p><br></p></body></html>`;

function serve(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://localhost');
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  if (url.pathname === '/editor') {
    response.end(EDITOR);
    return;
  }
  if (url.pathname === '/saved') {
    const text = (name: string) => (url.searchParams.get(name) ?? '').replace(/[<&]/g, '');
    response.end(
      `<!doctype html><meta charset="utf-8"><title>Saved</title><main><h1>Saved note</h1>` +
        `<p id="summary">Summary: ${text('summary')}</p><p id="details">Details: ${text('details')}</p></main>`,
    );
    return;
  }
  response.end(FORM);
}

const BOUND = { summary: 'Quarterly budget review', details: 'Move the meeting to Thursday' };

let served: PageOnServer;
const evidence = tempDir('lift-rich-text-replay-');

beforeAll(async () => {
  served = await pageOnServer(serve, 'lift-rich-text-', BOUND);
});
afterAll(async () => {
  await served?.close();
  evidence.remove();
});
beforeEach(async () => {
  await served.harness.goto(`${served.origin}/`);
  await served.page.frameLocator('#details').locator('body').waitFor();
});

async function act(action: UiAction, refs = new Map()): Promise<StepResult> {
  const env = served.harness.actEnvironment(refs, {}, Date.now() + 10_000);
  return performAction(env, action, 0);
}

const summaryText = () => served.page.locator('#summary').textContent();
const detailsText = () => served.page.frameLocator('#details').locator('body').textContent();

/** The elements observe offers for the two editors, by their refs. */
async function editors() {
  const { observation, index } = await served.harness.observe(1);
  const summary = observation.elements.find((element) => element.name === 'Summary');
  const details = observation.elements.find((element) => element.name === 'Rich Text Area');
  expect(summary, observation.text).toBeDefined();
  expect(details, observation.text).toBeDefined();
  return { summary: summary!, details: details!, refs: index.elements, text: observation.text };
}

describe('rich-text editors, a contenteditable div and an editable body in an iframe', () => {
  it('are fields observe offers, filled by ref, verified and read back', async () => {
    const { summary, details, refs, text } = await editors();
    expect(text).toMatch(
      /frame "Rich Text Area" \/editor:\n {2}\[e\d+\] textbox "Rich Text Area" ⇒ label "Rich Text Area"/,
    );
    const first = await act({ op: 'fill', target: { ref: summary.ref }, value: { input: 'summary' } }, refs);
    expect(first.status, first.message).toBe('executed');
    expect(first.effect, first.message).toBe('changed');
    const second = await act({ op: 'fill', target: { ref: details.ref }, value: { input: 'details' } }, refs);
    expect(second.status, second.message).toBe('executed');
    expect(second.effect, second.message).toBe('changed');
    expect(second.resolved?.target?.frame).toEqual(['Rich Text Area']);
    expect(await summaryText()).toBe(BOUND.summary);
    expect(await detailsText()).toBe(BOUND.details);
    const again = await served.harness.observe(2);
    expect(again.observation.text).toContain('textbox "Rich Text Area" = "⟦input:details⟧"');
  });

  it('are typed into key by key, replacing what they held', async () => {
    const { summary, details, refs } = await editors();
    await served.page.locator('#summary').evaluate((element) => {
      element.textContent = 'draft';
    });
    const first = await act({ op: 'type', target: { ref: summary.ref }, value: 'Budget, typed' }, refs);
    expect(first.effect, first.message).toBe('changed');
    const second = await act({ op: 'type', target: { ref: details.ref }, value: 'Typed details' }, refs);
    expect(second.effect, second.message).toBe('changed');
    expect(await summaryText()).toBe('Budget, typed');
    expect(await detailsText()).toBe('Typed details');
  });

  it('are compiled from discovery and filled by a replay on other inputs', { timeout: 90_000 }, async () => {
    const { harness, page, origin } = served;
    const { summary, details, refs } = await editors();
    const executed: ExecutedAction[] = [];
    const keep = (result: StepResult, record: (target: Target) => ExecutedAction) => {
      expect(result.status, result.message).toBe('executed');
      expect(result.resolved?.notUnique).toBeUndefined();
      executed.push(record(result.resolved!.target!));
    };
    keep(
      await act({ op: 'fill', target: { ref: summary.ref }, value: { input: 'summary' } }, refs),
      (target) => ({
        op: 'fill',
        target,
        value: { input: 'summary' },
      }),
    );
    keep(
      await act({ op: 'type', target: { ref: details.ref }, value: { input: 'details' } }, refs),
      (target) => ({
        op: 'type',
        target,
        value: { input: 'details' },
      }),
    );
    const { observation, index } = await harness.observe(2);
    const save = observation.elements.find((element) => element.name === 'Save note');
    keep(await act({ op: 'click', target: { ref: save!.ref } }, index.elements), (target) => ({
      op: 'click',
      target,
    }));
    await page.waitForURL(/\/saved/);
    expect(await page.locator('#summary').textContent()).toBe(`Summary: ${BOUND.summary}`);

    const shown = (id: string, input: string) => ({
      target: {
        frame: [],
        locator: { by: 'text' as const, text: `${id}: ${BOUND[input as keyof typeof BOUND]}` },
      },
      input,
      match: 'contains' as const,
    });
    const capability = compileCapability({
      name: 'note_create',
      intent: 'Write a note in the two rich-text editors and save it',
      inputs: [
        { name: 'summary', type: 'string' },
        { name: 'details', type: 'string' },
      ],
      outputs: [{ name: 'saved', type: 'string', from: { url: { param: 'summary' } } }],
      bound: BOUND,
      start: { origin, path: '/', fingerprint: '0'.repeat(64) },
      actions: executed,
      checkpoint: { ...shown('Summary', 'summary'), values: [shown('Details', 'details')] },
      outcomes: ['found'],
      provenance: {
        explorer: 'scripted',
        runId: 'run_test',
        createdAt: '2026-12-03T08:00:00.000Z',
        liftVersion: LIFT_VERSION,
      },
    });
    expect(capability.steps.map((step) => step.op)).toEqual(['fill', 'type', 'click']);
    expect(capability.steps[1]).toMatchObject({ target: { frame: ['Rich Text Area'] } });

    const replayPage = await page.context().browser()!.newPage();
    try {
      const inputs = { summary: 'Hiring plan', details: 'Two engineers by March' };
      const result = await replayCapability(capability, inputs, {
        page: replayPage,
        layoutTolerant: true,
        evidenceDir: evidence.path,
        stepTimeoutMs: 5_000,
      });
      expect(result).toMatchObject({
        outcome: 'found',
        checkpoint: { passed: true },
        outputs: { saved: 'Hiring plan' },
      });
      expect(await replayPage.locator('#summary').textContent()).toBe('Summary: Hiring plan');
      expect(await replayPage.locator('#details').textContent()).toBe('Details: Two engineers by March');
    } finally {
      await replayPage.close();
    }
  });
});
