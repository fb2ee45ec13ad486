import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { performAction } from '../../../src/rungs/ui/act.js';
import { UiActionSchema } from '../../../src/rungs/ui/actions.js';
import type { ElementRecord } from '../../../src/rungs/ui/render.js';
import { type PageOnServer, pageOnServer, servesHtml } from './page-on-server.js';

// Three notes, each with its own Archive button, in no table: role and name name all three.
const PAGE = `<!doctype html><meta charset="utf-8"><title>Notes</title><main><h1>Notes</h1><ul>
${['Budget', 'Hiring', 'Travel']
  .map(
    (note) => `<li>${note} <button type="button" onclick="this.parentElement.remove()">Archive</button></li>`,
  )
  .join('')}
</ul></main>`;

let served: PageOnServer;
beforeAll(async () => {
  served = await pageOnServer(servesHtml(PAGE), 'lift-unique-');
});
afterAll(() => served?.close());
beforeEach(() => served.harness.goto(`${served.origin}/`));

/** The second Archive button's ref, its record's target made one that names other elements only. */
async function secondArchive(): Promise<{ ref: string; refs: Map<string, ElementRecord> }> {
  const { observation, index } = await served.harness.observe(1);
  const archive = observation.elements.filter((element) => element.name === 'Archive')[1]!;
  const record = index.elements.get(archive.ref)!;
  // As a record whose target the page no longer computes for it (the page changed since the
  // observation): the element is found by its ref, but no target names it, nth or not.
  index.elements.set(archive.ref, {
    ...record,
    target: {
      frame: [],
      locator: { by: 'role', role: 'button', name: 'Archive' },
      within: { role: 'list', name: 'Done' },
    },
  });
  return { ref: archive.ref, refs: index.elements };
}

const notes = () => served.page.locator('li').count();

describe('an element no target names alone', () => {
  it('is refused before it is acted on where every action is compiled (discovery)', async () => {
    const { ref, refs } = await secondArchive();
    const env = { ...served.harness.actEnvironment(refs, {}, Date.now() + 10_000), uniqueTargets: true };
    const result = await performAction(env, UiActionSchema.parse({ op: 'click', target: { ref } }), 0);
    expect(result).toMatchObject({ status: 'rejected', code: 'BAD_INPUT', blockedBy: 'ambiguous' });
    expect(result.message).toContain('nothing was done');
    expect(await notes()).toBe(3);
  });

  it('is still acted on by its ref where nothing is compiled (the UI tools)', async () => {
    const { ref, refs } = await secondArchive();
    const env = served.harness.actEnvironment(refs, {}, Date.now() + 10_000);
    const result = await performAction(env, UiActionSchema.parse({ op: 'click', target: { ref } }), 0);
    expect(result.status, result.message).toBe('executed');
    expect(result.resolved?.notUnique).toBe(true);
    expect(await notes()).toBe(2);
    expect(await served.page.locator('li').allTextContents()).not.toContain('Hiring Archive');
  });
});
