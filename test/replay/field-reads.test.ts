import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability, Step } from '../../src/capability/capability.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import type { Target } from '../../src/rungs/ui/locator.js';
import { type PagesServer, servePages } from '../support/pages-server.js';
import { tempDir } from '../support/temp.js';
import { handWrittenCapability } from './helpers.js';

// Read-backs of every kind of field discovery can fill, in read steps and checkpoints alike:
// a textarea (its value, not the text it was served with), two unnamed boxes told apart by
// their nth, a select (its chosen option's label, or its value) and a rich-text editor. Issue
// 41 saw a textarea read "does not hold a string" and an unnamed box read as '' on real apps.
const EDIT = `<!doctype html><title>Edit ticket</title><main><h1>Edit ticket</h1>
<form><p><input> <input></p>
<p><label>Subject <input name="subject"></label></p>
<p><label for="notes">Notes</label><textarea id="notes"></textarea></p>
<p><label for="role">Role</label> <select id="role"><option value="">—</option><option value="editor">Editor</option><option value="subscriber">Subscriber</option></select></p>
<div role="textbox" aria-label="Body" contenteditable="true" style="min-height: 3em; border: 1px solid"><p><br></p></div>
</form></main>`;

const USER = `<!doctype html><title>User</title><main><h1>User jdoe</h1>
<label for="role">Role</label> <select id="role"><option value="subscriber">Subscriber</option><option value="editor" selected>Editor</option></select>
<label><input type="checkbox" checked> Send notifications</label>
</main>`;

let server: PagesServer;
let origin: string;
let browser: Browser;
const evidence = tempDir('lift-field-reads-');

beforeAll(async () => {
  server = await servePages((url) => ({ body: url.pathname === '/user' ? USER : EDIT }));
  origin = server.origin;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  evidence.remove();
});

const at = (locator: Target['locator'], nth?: number): Target => ({
  frame: [],
  locator,
  ...(nth ? { nth } : {}),
});
const unnamedBox = (nth: number) => at({ by: 'role', role: 'textbox', name: '', exact: false }, nth);
const subject = at({ by: 'label', label: 'Subject' });
const notes = at({ by: 'label', label: 'Notes' });
const role = at({ by: 'label', label: 'Role' });
const body = at({ by: 'label', label: 'Body' });

function fill(target: Target, input: string): Step {
  return {
    version: 1,
    op: 'fill',
    target,
    value: { input },
    expect: { kind: 'value', target, equals: { input } },
  };
}

const read = (target: Target, output: string): Step => ({
  version: 1,
  op: 'read',
  target,
  output,
  expect: { kind: 'none' },
});

function editTicket(codeBox = unnamedBox(2)): Capability {
  return handWrittenCapability({
    name: 'ticket_fields_edit',
    intent: 'Type into every kind of field and read each one back',
    inputs: ['subject', 'notes', 'code', 'role', 'body'].map((name) => ({ name, type: 'string' as const })),
    outputs: ['notes_read', 'code_read', 'role_read', 'body_read'].map((name) => ({
      name,
      type: 'string' as const,
    })),
    preconditions: { origin, path: '/edit', fingerprint: 'not-checked' },
    steps: [
      fill(unnamedBox(1), 'subject'),
      fill(unnamedBox(2), 'code'),
      fill(subject, 'subject'),
      fill(notes, 'notes'),
      { version: 1, op: 'select', target: role, value: { input: 'role' }, expect: { kind: 'none' } },
      fill(body, 'body'),
      read(notes, 'notes_read'),
      read(codeBox, 'code_read'),
      read(role, 'role_read'),
      read(body, 'body_read'),
    ],
    outcomes: ['found'],
    checkpoint: {
      target: subject,
      equals: { input: 'subject' },
      match: 'exact',
      values: [
        { target: notes, equals: { input: 'notes' }, match: 'exact' },
        { target: codeBox, equals: { input: 'code' }, match: 'exact' },
        { target: role, equals: { input: 'role' }, match: 'exact' },
        { target: body, equals: { input: 'body' }, match: 'exact' },
      ],
    },
  });
}

const inputs = {
  subject: 'Printer jam',
  notes: 'Paper stuck in tray 2',
  code: 'TR-2',
  role: 'Editor',
  body: 'Please send a technician.',
};

describe('reads of fields at replay', () => {
  it('read a textarea, an unnamed box by its nth, a select and a rich-text editor as they hold what was typed', {
    timeout: 60_000,
  }, async () => {
    const page = await browser.newPage();
    try {
      const result = await replayCapability(editTicket(), inputs, {
        page,
        layoutTolerant: true,
        evidenceDir: evidence.path,
      });
      expect(result.outcome).toBe('found');
      expect(result.outputs).toEqual({
        notes_read: 'Paper stuck in tray 2',
        code_read: 'TR-2',
        role_read: 'Editor',
        body_read: 'Please send a technician.',
      });
      expect(result.checkpoint?.passed).toBe(true);
    } finally {
      await page.close();
    }
  });

  it('fail the checkpoint when the box its nth names holds another value', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    try {
      const failure = await replayCapability(editTicket(unnamedBox(1)), inputs, {
        page,
        layoutTolerant: true,
        evidenceDir: evidence.path,
      }).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'CHECK_FAILED' });
      expect(String((failure as Error).message)).toContain("shows 'Printer jam', not the requested 'TR-2'");
    } finally {
      await page.close();
    }
  });

  it("compare a select with its option's value as well as its label, and read a box's checked state", {
    timeout: 60_000,
  }, async () => {
    const capability = handWrittenCapability({
      name: 'user_role_read',
      intent: "Read a user's role and whether they get notifications",
      inputs: [{ name: 'role', type: 'string' }],
      outputs: [
        { name: 'role_shown', type: 'string' },
        { name: 'notified', type: 'boolean' },
      ],
      preconditions: { origin, path: '/user', fingerprint: 'not-checked' },
      steps: [
        read(role, 'role_shown'),
        read(at({ by: 'role', role: 'checkbox', name: 'Send notifications' }), 'notified'),
      ],
      outcomes: ['found'],
      checkpoint: { target: role, equals: { input: 'role' }, match: 'exact' },
    });
    const page = await browser.newPage();
    try {
      for (const chosen of ['editor', 'Editor']) {
        const result = await replayCapability(
          capability,
          { role: chosen },
          { page, layoutTolerant: true, evidenceDir: evidence.path },
        );
        expect(result).toMatchObject({
          outcome: 'found',
          outputs: { role_shown: 'Editor', notified: true },
          checkpoint: { passed: true },
        });
      }
      await expect(
        replayCapability(
          capability,
          { role: 'subscriber' },
          { page, layoutTolerant: true, evidenceDir: evidence.path },
        ),
      ).rejects.toMatchObject({ code: 'CHECK_FAILED' });
    } finally {
      await page.close();
    }
  });
});
