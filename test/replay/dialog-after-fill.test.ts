import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability, Step } from '../../src/capability/capability.js';
import { LiftError } from '../../src/contract/errors.js';
import { replayCapability } from '../../src/replay/engine.js';
import type { Target } from '../../src/rungs/ui/locator.js';
import { type PageOnServer, pageOnServer } from '../rungs/ui/page-on-server.js';
import { tempDir } from '../support/temp.js';
import { handWrittenCapability } from './helpers.js';

// A form in a frame known by its title (its name says something else), whose field opens an
// alert a moment after it is typed into, as an autosave that reports itself does. After the
// fill, replay watches that frame for the page the step caused, and finds the frame by asking
// each frame for its title: a question the alert blocks. The replay must stop on the dialog
// it did not expect (UNEXPECTED_STATE), not wait for an answer the frame cannot give.
const FORM = `<!doctype html><title>Note</title><main><form><label>Note <input name="note"></label></form></main>
<script>
document.querySelector('input').addEventListener('input', () => setTimeout(() => alert('Draft saved'), 0));
</script>`;
const SHELL = `<!doctype html><title>Shell</title><main><h1>Shell</h1>
<iframe name="pane-1" title="Editor" src="/form"></iframe></main>`;

const inEditor = (locator: Target['locator']): Target => ({ frame: ['Editor'], locator });

function noteCapability(origin: string): Capability {
  const field = inEditor({ by: 'label', label: 'Note' });
  const steps: Step[] = [
    {
      version: 1,
      op: 'fill',
      target: field,
      value: { input: 'note' },
      expect: { kind: 'value', target: field, equals: { input: 'note' } },
    },
    { version: 1, op: 'read', target: field, output: 'written', expect: { kind: 'none' } },
  ];
  return handWrittenCapability({
    name: 'note_write',
    intent: 'Write a note into the editor',
    inputs: [{ name: 'note', type: 'string' }],
    outputs: [{ name: 'written', type: 'string' }],
    preconditions: { origin, path: '/', fingerprint: 'not-checked' },
    steps,
    outcomes: ['found'],
    checkpoint: { target: field, equals: { input: 'note' }, match: 'exact' },
  });
}

let server: PageOnServer;
const evidence = tempDir('lift-dialog-after-fill-');

beforeAll(async () => {
  server = await pageOnServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(request.url === '/form' ? FORM : SHELL);
  }, 'lift-dialog-after-fill-page-');
});
afterAll(async () => {
  await server?.close();
  evidence.remove();
});

describe('a dialog that opens while replay waits for the page a fill caused', () => {
  it('stops the replay as an undeclared dialog', { timeout: 60_000 }, async () => {
    const error = await replayCapability(
      noteCapability(server.origin),
      { note: 'Call back on Monday' },
      { page: server.page, layoutTolerant: true, evidenceDir: evidence.path, effectClass: 'reversible' },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LiftError);
    expect((error as LiftError).code).toBe('UNEXPECTED_STATE');
    expect((error as LiftError).message).toMatch(/dialog/i);
  });
});
