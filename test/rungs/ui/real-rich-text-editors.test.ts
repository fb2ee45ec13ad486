import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIFT_VERSION } from '../../../src/contract/version.js';
import { compileCapability, type ExecutedAction } from '../../../src/discover/compile.js';
import { replayCapability } from '../../../src/replay/engine.js';
import { performAction, type StepResult } from '../../../src/rungs/ui/act.js';
import { type UiActionInput, UiActionSchema } from '../../../src/rungs/ui/actions.js';
import { tempDir } from '../../support/temp.js';
import { type PageOnServer, pageOnServer } from './page-on-server.js';

// Real editors, as Debian ships them: CKEditor 4 (the ckeditor package), TinyMCE 5 (Roundcube's
// copy) and TinyMCE 4 (WordPress's). Each replaces the form's textarea with an iframe whose
// body is the editor, and copies the editor's HTML back into the textarea when the form is sent.
const EDITORS = {
  ckeditor4: {
    dir: '/usr/share/javascript/ckeditor/',
    script: `<script src="/lib/ckeditor.js"></script><script>CKEDITOR.replace('body')</script>`,
  },
  tinymce5: {
    dir: '/usr/share/roundcube/program/js/tinymce/',
    script: `<script src="/lib/tinymce.min.js"></script><script>tinymce.init({ selector: '#body' })</script>`,
  },
  tinymce4: {
    dir: '/usr/share/wordpress/wp-includes/js/tinymce/',
    script: `<script src="/lib/tinymce.min.js"></script><script>tinymce.init({ selector: '#body' })</script>`,
  },
} as const;
type Editor = keyof typeof EDITORS;

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' };

/** What the form sent last, its HTML turned into the text a person reads. */
const received: { body?: string } = {};

function server(editor: Editor) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const { dir, script } = EDITORS[editor];
    if (url.pathname.startsWith('/lib/')) {
      const file = normalize(join(dir, url.pathname.slice('/lib/'.length)));
      if (!file.startsWith(dir) || !existsSync(file)) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(readFileSync(file));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (url.pathname === '/saved') {
      const text = (url.searchParams.get('body') ?? '')
        .replace(/<\/p>|<br\s*\/?>/g, '\n')
        .replace(/<[^>]*>/g, '')
        .replace(/&nbsp;/g, ' ')
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      received.body = text.join('\n');
      response.end(
        `<!doctype html><meta charset="utf-8"><title>Saved</title><main><h1>Saved note</h1>${text.map((line) => `<p>${line.replace(/</g, '&lt;')}</p>`).join('')}</main>`,
      );
      return;
    }
    response.end(`<!doctype html><meta charset="utf-8"><title>New note</title><main><h1>New note</h1>
<form action="/saved" method="get"><label for="body">Body</label>
<textarea id="body" name="body">&lt;p&gt;Kept paragraph&lt;/p&gt;</textarea>
<button type="submit">Save note</button></form></main>${script}`);
  };
}

const BOUND = { summary: 'Quarterly budget review', details: 'Move the meeting to Thursday' };
const evidence = tempDir('lift-real-editors-');
afterAll(() => evidence.remove());

describe.each(Object.keys(EDITORS) as Editor[])('the real %s editor in its iframe', (editor) => {
  let served: PageOnServer;
  beforeAll(async () => {
    served = await pageOnServer(server(editor), `lift-${editor}-`, BOUND);
  });
  afterAll(() => served?.close());

  async function act(action: UiActionInput, refs = new Map()): Promise<StepResult> {
    const env = served.harness.actEnvironment(refs, {}, Date.now() + 10_000);
    return performAction(env, UiActionSchema.parse(action), 0);
  }

  /** The page once its editor holds the seeded paragraph, and the field observe offers for it. */
  async function editorField() {
    await served.harness.goto(`${served.origin}/`);
    await served.page
      .frameLocator('iframe')
      .first()
      .locator('body')
      .getByText('Kept paragraph')
      .waitFor({ timeout: 20_000 });
    const { observation, index } = await served.harness.observe(1);
    const field = observation.elements.find(
      (element) => element.role === 'textbox' && element.frame.length === 1,
    );
    expect(field, observation.text).toBeDefined();
    return { ref: field!.ref, refs: index.elements };
  }

  it('is offered by observe, filled, appended to at the caret, verified by its own text and replayed', {
    timeout: 120_000,
  }, async () => {
    const executed: ExecutedAction[] = [];
    const keep = (
      result: StepResult,
      record: (target: NonNullable<StepResult['resolved']>['target']) => ExecutedAction,
    ) => {
      expect(result.status, result.message).toBe('executed');
      expect(result.effect, result.message).not.toBe('unexpected');
      executed.push(record(result.resolved!.target));
    };
    const { ref, refs } = await editorField();
    const filled = await act({ op: 'fill', target: { ref }, value: { template: '{{summary}}' } }, refs);
    expect(filled.message).toContain('⟦input:summary⟧');
    keep(filled, (target) => ({ op: 'fill', target: target!, value: { template: '{{input.summary}}' } }));
    const end = await act({ op: 'press', target: { ref }, key: 'Control+End' }, refs);
    keep(end, (target) => ({ op: 'press', target: target!, key: 'Control+End' }));
    const typed = await act(
      { op: 'type', target: { ref }, value: { template: '\n{{details}}' }, clear: false },
      refs,
    );
    keep(typed, (target) => ({
      op: 'type',
      target: target!,
      value: { template: '\n{{input.details}}' },
      clear: false,
    }));
    const { observation, index } = await served.harness.observe(2);
    const save = observation.elements.find((element) => element.name === 'Save note');
    keep(await act({ op: 'click', target: { ref: save!.ref } }, index.elements), (target) => ({
      op: 'click',
      target: target!,
    }));
    await served.page.waitForURL(/\/saved/);
    expect(received.body).toBe(`${BOUND.summary}\n${BOUND.details}`);

    const shown = (input: 'summary' | 'details') => ({
      target: { frame: [], locator: { by: 'text' as const, text: BOUND[input] } },
      input,
    });
    const capability = compileCapability({
      name: 'note_create',
      intent: 'Write a note of two paragraphs in the rich-text editor and save it',
      inputs: [
        { name: 'summary', type: 'string' },
        { name: 'details', type: 'string' },
      ],
      outputs: [{ name: 'saved', type: 'string', from: { url: {} } }],
      bound: BOUND,
      start: { origin: served.origin, path: '/', fingerprint: '0'.repeat(64) },
      actions: executed,
      checkpoint: { ...shown('summary'), values: [shown('details')] },
      outcomes: ['found'],
      provenance: {
        explorer: 'scripted',
        runId: 'run_test',
        createdAt: '2026-12-03T08:00:00.000Z',
        liftVersion: LIFT_VERSION,
      },
    });
    expect(capability.steps.map((step) => step.op)).toEqual(['fill', 'press', 'type', 'click']);

    const page = await served.page.context().browser()!.newPage();
    try {
      const inputs = { summary: 'Hiring plan', details: 'Two engineers by March' };
      const result = await replayCapability(capability, inputs, {
        page,
        layoutTolerant: true,
        evidenceDir: evidence.path,
        stepTimeoutMs: 10_000,
      });
      expect(result).toMatchObject({ outcome: 'found', checkpoint: { passed: true } });
      expect(received.body).toBe('Hiring plan\nTwo engineers by March');
    } finally {
      await page.close();
    }
  });
});
