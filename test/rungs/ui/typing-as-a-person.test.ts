import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { performAction, type StepResult } from '../../../src/rungs/ui/act.js';
import type { UiActionInput } from '../../../src/rungs/ui/actions.js';
import { UiActionSchema } from '../../../src/rungs/ui/actions.js';
import { type PageOnServer, pageOnServer, servesHtml } from './page-on-server.js';

// A wiki's edit form: a title box, the page's text in a textarea that already holds two lines,
// and a contenteditable summary; Enter in the title box would send the form.
const PAGE = `<!doctype html><meta charset="utf-8"><title>Edit page</title>
<main><h1>Edit page</h1><form id="edit" onsubmit="event.preventDefault(); document.getElementById('sent').textContent = 'sent'">
<label for="title">Title</label><input id="title" name="title" value="Draft">
<label for="text">Page text</label><textarea id="text" name="text" rows="8">First line
Second line</textarea>
<span id="summary-label">Summary</span>
<div id="summary" contenteditable="true" role="textbox" aria-multiline="true" aria-labelledby="summary-label"><p>Kept words</p></div>
<button type="submit">Save</button></form><p id="sent"></p></main>`;

const BOUND = { title: 'Release notes', body: 'Ships on Friday', line: '* Added by Lift' };

let served: PageOnServer;
beforeAll(async () => {
  served = await pageOnServer(servesHtml(PAGE), 'lift-typing-', BOUND);
});
afterAll(() => served?.close());
beforeEach(() => served.harness.goto(`${served.origin}/`));

async function act(action: UiActionInput): Promise<StepResult> {
  const env = served.harness.actEnvironment(new Map(), {}, Date.now() + 10_000);
  return performAction(env, UiActionSchema.parse(action), 0);
}

const label = (name: string) => ({ frame: [], locator: { by: 'label' as const, label: name } });
const summary = { frame: [], locator: { by: 'role' as const, role: 'textbox', name: 'Summary' } };
const textOf = (selector: string) => served.page.locator(selector).inputValue();

describe('a value composed of inputs and text (template)', () => {
  it('fills several inputs, literals and line breaks, naming inputs as {{NAME}} or {{input.NAME}}', async () => {
    const result = await act({
      op: 'fill',
      target: label('Page text'),
      value: { template: '====== {{title}} ======\n\n{{input.body}}\n{{Stub}}' },
    });
    expect(result.status, result.message).toBe('executed');
    expect(result.effect, result.message).toBe('changed');
    expect(await textOf('#text')).toBe('====== Release notes ======\n\nShips on Friday\n{{Stub}}');
    // The capability's own form, and the model sees placeholders only.
    expect(result.resolved?.template).toBe('====== {{input.title}} ======\n\n{{input.body}}\n{{Stub}}');
    expect(result.message).toContain('⟦input:title⟧');
    expect(result.message).not.toContain('Release notes');
  });

  it('types a template with a line break into a textarea and an editor, key by key', async () => {
    const typed = await act({
      op: 'type',
      target: label('Page text'),
      value: { template: '{{title}}\n{{body}}' },
    });
    expect(typed.effect, typed.message).toBe('changed');
    expect(await textOf('#text')).toBe('Release notes\nShips on Friday');
    const edited = await act({ op: 'type', target: summary, value: { template: '{{title}}\n{{body}}' } });
    expect(edited.effect, edited.message).toBe('changed');
    // biome-ignore lint/performance/useDomNodeTextContent: the editor's text as a person reads it, paragraphs as lines
    expect(await served.page.locator('#summary').innerText()).toMatch(/^Release notes\n+Ships on Friday$/);
  });

  it('refuses an input it names that is not bound, and a line break typed into a one-line field', async () => {
    const unknown = await act({
      op: 'fill',
      target: label('Title'),
      value: { template: '{{input.author}}: x' },
    });
    expect(unknown).toMatchObject({ status: 'rejected', code: 'BAD_INPUT' });
    expect(unknown.message).toContain("'author'");
    const enter = await act({ op: 'type', target: label('Title'), value: { template: '{{title}}\nmore' } });
    expect(enter).toMatchObject({ status: 'rejected', code: 'BAD_INPUT' });
    expect(await served.page.locator('#sent').textContent()).toBe('');
    expect(await textOf('#title')).toBe('Draft');
  });
});

describe('typing at the caret (clear: false) after a caret key', () => {
  it('appends a line to a textarea after Control+End, keeping what it held', async () => {
    const end = await act({ op: 'press', target: label('Page text'), key: 'Control+End' });
    expect(end.status, end.message).toBe('executed');
    expect(end.message).toContain('at the end of the field');
    const typed = await act({
      op: 'type',
      target: label('Page text'),
      value: { template: '\n{{line}}' },
      clear: false,
    });
    expect(typed.effect, typed.message).toBe('changed');
    expect(await textOf('#text')).toBe('First line\nSecond line\n* Added by Lift');
  });

  it('types at the start after Control+Home, and at the end of an input after End', async () => {
    await act({ op: 'press', target: label('Page text'), key: 'Control+Home' });
    const first = await act({ op: 'type', target: label('Page text'), value: 'Top: ', clear: false });
    expect(first.effect, first.message).toBe('changed');
    expect(await textOf('#text')).toBe('Top: First line\nSecond line');
    await act({ op: 'press', target: label('Title'), key: 'End' });
    const title = await act({ op: 'type', target: label('Title'), value: { input: 'title' }, clear: false });
    expect(title.effect, title.message).toBe('changed');
    expect(await textOf('#title')).toBe('DraftRelease notes');
  });

  it('appends to a rich-text editor after Control+End', async () => {
    await act({ op: 'press', target: summary, key: 'Control+End' });
    const typed = await act({ op: 'type', target: summary, value: ' and more', clear: false });
    expect(typed.effect, typed.message).toBe('changed');
    // biome-ignore lint/performance/useDomNodeTextContent: the editor's text as a person reads it
    expect(await served.page.locator('#summary').innerText()).toBe('Kept words and more');
  });

  it('still empties the field first when clear is not given', async () => {
    const typed = await act({ op: 'type', target: label('Page text'), value: 'Only this' });
    expect(typed.effect, typed.message).toBe('changed');
    expect(await textOf('#text')).toBe('Only this');
  });
});
