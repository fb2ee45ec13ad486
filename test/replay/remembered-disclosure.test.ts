import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability, Step } from '../../src/capability/capability.js';
import type { EffectClass } from '../../src/contract/effects.js';
import { replayCapability } from '../../src/replay/engine.js';
import type { Target } from '../../src/rungs/ui/locator.js';
import { pageOnServer, servesHtml } from '../rungs/ui/page-on-server.js';
import { tempDir } from '../support/temp.js';
import { handWrittenCapability } from './helpers.js';

// A mail list whose preview shows a summary and a "Details" link; the link shows the header
// table and, as Roundcube does, the page remembers it: every later preview opens with the
// details shown and no Details link. A lookup discovered on a fresh profile clicks Details;
// replayed again it found no Details link and failed SURFACE_CHANGED after its whole wait.
const PAGE = `<!doctype html><title>Mail</title><main><h1>Inbox</h1>
<ul aria-label="Messages">
<li><a href="#1" data-from="Jane Doe">Lunch on Friday?</a></li>
<li><a href="#2" data-from="Al Ng">Re: 2</a></li>
</ul>
<section id="preview" hidden><h2 id="subject"></h2>
<p>Summary <a href="#details" id="details-link">Details</a></p>
<table id="headers" hidden><tr><th>From</th><td id="from"></td></tr>
<tr><th>Subject</th><td id="header-subject"></td></tr></table></section>
</main><script>
const remembered = () => localStorage.getItem('details') === 'shown';
const show = () => {
  document.getElementById('details-link').hidden = remembered();
  document.getElementById('headers').hidden = !remembered();
};
for (const link of document.querySelectorAll('a[data-from]')) link.addEventListener('click', (event) => {
  event.preventDefault();
  document.getElementById('subject').textContent = link.textContent;
  document.getElementById('from').textContent = link.dataset.from;
  document.getElementById('header-subject').textContent = link.textContent;
  document.getElementById('preview').hidden = false;
  show();
});
document.getElementById('details-link').addEventListener('click', (event) => {
  event.preventDefault();
  localStorage.setItem('details', 'shown');
  show();
});
</script>`;

const role = (name: string, accessibleName: string): Target => ({
  frame: [],
  locator: { by: 'role', role: name, name: accessibleName, exact: true },
});
const DETAILS = role('link', 'Details');
const FROM: Target = { frame: [], locator: { by: 'pair', label: 'From' } };

function senderLookup(origin: string): Capability {
  const steps: Step[] = [
    {
      version: 1,
      op: 'click',
      target: role('link', '{{input.subject}}'),
      expect: { kind: 'visible', target: DETAILS },
    },
    {
      version: 1,
      op: 'click',
      target: DETAILS,
      // What the click shows, named by the bound input: the replay binds it before it looks.
      expect: { kind: 'visible', target: role('cell', '{{input.subject}}') },
    },
    { version: 1, op: 'read', target: FROM, output: 'sender', expect: { kind: 'none' } },
  ];
  return handWrittenCapability({
    name: 'sender_by_subject',
    intent: "Read a message's sender by its subject",
    inputs: [{ name: 'subject', type: 'string' }],
    outputs: [{ name: 'sender', type: 'string' }],
    preconditions: { origin, path: '/inbox', fingerprint: 'not-checked' },
    steps,
    outcomes: ['found', 'not_found'],
    checkpoint: {
      target: role('heading', '{{input.subject}}'),
      equals: { input: 'subject' },
      match: 'exact',
    },
  });
}

let server: Awaited<ReturnType<typeof pageOnServer>>;
const evidence = tempDir('lift-disclosure-');

beforeAll(async () => {
  server = await pageOnServer(servesHtml(PAGE), 'lift-disclosure-page-');
});
afterAll(async () => {
  await server?.close();
  evidence.remove();
});

/** A new context of the server's browser: a profile that remembers nothing yet. */
async function freshProfile(): Promise<Page> {
  return (await server.page.context().browser()!.newContext()).newPage();
}

async function replay(page: Page, subject: string, effectClass: EffectClass) {
  const events: Array<{ type: string; index?: unknown }> = [];
  const result = await replayCapability(
    senderLookup(server.origin),
    { subject },
    {
      page,
      layoutTolerant: true,
      evidenceDir: evidence.path,
      effectClass,
      stepTimeoutMs: 1_500,
      emit: (event) => events.push(event),
    },
  );
  return { result, skipped: events.filter((event) => event.type === 'replay-step-skipped') };
}

describe('a disclosure the application remembers open', () => {
  it('is clicked the first time, and passed over by a read once the page shows what it would show', {
    timeout: 60_000,
  }, async () => {
    const page = await freshProfile();
    try {
      const first = await replay(page, 'Lunch on Friday?', 'read');
      expect(first.result).toMatchObject({ outcome: 'found', outputs: { sender: 'Jane Doe' }, stepsRun: 3 });
      expect(first.skipped).toEqual([]);
      // The same profile: the details open by themselves and the Details link is gone.
      const again = await replay(page, 'Re: 2', 'read');
      expect(again.result).toMatchObject({ outcome: 'found', outputs: { sender: 'Al Ng' }, stepsRun: 2 });
      expect(again.skipped).toMatchObject([{ index: 1 }]);
      expect(again.result.checkpoint).toMatchObject({ passed: true });
    } finally {
      await page.context().close();
    }
  });

  it('is never passed over by a write: its click could be the one that sends', {
    timeout: 60_000,
  }, async () => {
    const page = await freshProfile();
    try {
      await replay(page, 'Lunch on Friday?', 'visible');
      await expect(replay(page, 'Re: 2', 'visible')).rejects.toMatchObject({ code: 'SURFACE_CHANGED' });
    } finally {
      await page.context().close();
    }
  });
});
