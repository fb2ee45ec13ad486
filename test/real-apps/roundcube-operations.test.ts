import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import type { SignInRecipe } from '../../src/rungs/ui/sign-in.js';
import { type RoundcubeApp, startApp } from './bed.js';
import type { ExplorerMoves } from './explore.js';
import { discoverRegisterReplay, formatRecord, type Operation, type OperationRecord } from './operations.js';
import { signIn } from './sign-in.js';

let app: RoundcubeApp;
let browser: Browser;
const records: OperationRecord[] = [];
// A discovery, a registration through the CLI and three replays with a reset each: minutes under load.
const OPERATION_TIMEOUT_MS = 360_000;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('roundcube'), launchBrowser()]);
});

afterAll(async () => {
  for (const record of records) console.log(formatRecord(record));
  await browser?.close();
  await app?.stop();
});

// The login labels are hidden cells beside icons: the boxes are named by their placeholders.
const SIGN_IN: Partial<SignInRecipe> = {
  fields: [
    {
      target: { frame: [], locator: { by: 'role', role: 'textbox', name: 'Username' } },
      value: { literal: 'alice@example.test' },
      op: 'fill',
    },
    {
      target: { frame: [], locator: { by: 'role', role: 'textbox', name: 'Password' } },
      value: { secret: 'roundcube_password' },
      op: 'fill',
    },
  ],
  submit: { click: { frame: [], locator: { by: 'role', role: 'button', name: 'Login' } } },
  success: { visible: { frame: [], locator: { by: 'role', role: 'table', name: 'Email Messages Listing' } } },
};

const INBOX = '/?_task=mail&_mbox=INBOX';

/** The message list's row that shows the bound subject, by the ref observe printed on it. */
function messageRow(page: string): { ref: string } {
  const ref = /\[([A-Za-z0-9]+)\] [^|\n]* ⟦input:subject⟧ \|/.exec(page)?.[1];
  expect(ref, page).toBeDefined();
  return { ref: ref! };
}

const PREVIEW = ['Message preview'];

/** The preview's heading, which carries more than the subject (observe prints a trailing icon). */
const PREVIEW_SHOWS_SUBJECT = {
  target: {
    frame: PREVIEW,
    locator: { by: 'role', role: 'heading', name: '{{input.subject}}', exact: false },
  },
  input: 'subject',
  match: 'contains',
};

/**
 * Opens the bound subject's message in the preview, shows its header details, and reads the
 * value beside one header label there ("From", "Date"), as a person reads it.
 */
async function readFromPreview(moves: ExplorerMoves, inbox: string, label: string, as: string) {
  await moves.act([{ op: 'click', target: messageRow(inbox) }]);
  const shown = await moves.observe();
  await moves.act([{ op: 'click', target: moves.ref(shown, 'link', /[^"]*Details/) }]);
  const details = await moves.observe();
  expect(details, details).toContain(label);
  return moves.act([{ op: 'read', target: { frame: PREVIEW, locator: { by: 'pair', label } }, as }]);
}

/** Opens a message of the inbox by its subject and reads its sender's name from the preview (a read). */
const senderBySubject: Operation<RoundcubeApp> = {
  name: 'roundcube_sender_by_subject',
  intent: "Find a message in the inbox by its subject and return its sender's name",
  effect: 'read',
  inputs: [{ name: 'subject', type: 'string' }],
  outputs: [{ name: 'sender', type: 'string' }],
  startPath: INBOX,
  bound: { subject: 'Lunch on Friday?' },
  signIn: SIGN_IN,
  async explore(moves) {
    const page = await moves.observe();
    const read = await readFromPreview(moves, page, 'From', 'sender');
    const completed = await moves.complete({
      outputs: ['sender'],
      checkpoint: PREVIEW_SHOWS_SUBJECT,
    });
    if (!completed.ok) throw new Error(JSON.stringify(read) + JSON.stringify(completed));
  },
  cases: ['Contact form returns 500', 'Re: 2', 'Invoice 2 for November'].map((subject) => ({
    inputs: { subject },
    check: async (bed, result) => {
      const [message] = await bed.state.findBySubject(subject);
      return message !== undefined && result.outputs.sender === message.from.name;
    },
  })),
};

/** Opens a message of the inbox by its subject and reads its date from the header details (a read). */
const messageDate: Operation<RoundcubeApp> = {
  name: 'roundcube_message_date',
  intent: 'Find a message in the inbox by its subject and return the date it was sent',
  effect: 'read',
  inputs: [{ name: 'subject', type: 'string' }],
  outputs: [{ name: 'date', type: 'string' }],
  startPath: INBOX,
  bound: { subject: 'Cannot log in' },
  signIn: SIGN_IN,
  async explore(moves) {
    const page = await moves.observe();
    const read = await readFromPreview(moves, page, 'Date', 'date');
    const completed = await moves.complete({ outputs: ['date'], checkpoint: PREVIEW_SHOWS_SUBJECT });
    if (!completed.ok) throw new Error(JSON.stringify(read) + JSON.stringify(completed));
  },
  cases: ['Lunch on Friday?', 'Re: 2', 'Inbox zero in five steps'].map((subject) => ({
    inputs: { subject },
    check: async (bed, result) => {
      const [message] = await bed.state.findBySubject(subject);
      const day = message ? new Date(message.date).toISOString().slice(0, 10) : undefined;
      return day !== undefined && String(result.outputs.date).includes(day);
    },
  })),
};

/**
 * Saves a draft with a subject and a body (a write every client of the mailbox sees). The
 * replay clicks Mail after Save, and the mail page sets itself up after it loads (it asks for
 * the inbox's list and ignores a folder click until it has it): a replay that clicked Drafts
 * as soon as the document loaded lost the click and opened the inbox's "Re: 2" or found no
 * "Offsite agenda" (test/replay/app-set-up-after-load.test.ts).
 */
const saveDraft: Operation<RoundcubeApp> = {
  name: 'roundcube_draft_save',
  intent: 'Save a draft message with a subject and a body',
  effect: 'visible',
  inputs: [
    { name: 'subject', type: 'string' },
    { name: 'body', type: 'string' },
  ],
  outputs: [{ name: 'listed', type: 'string', description: 'the draft as the Drafts folder lists it' }],
  startPath: INBOX,
  bound: { subject: 'Quarterly figures', body: 'Numbers attached next week.' },
  signIn: SIGN_IN,
  async explore(moves) {
    const page = await moves.observe();
    await moves.act([{ op: 'click', target: moves.ref(page, 'button', /[^"]*Compose/) }]);
    // The compose page builds itself after it loads: observe again until its form shows.
    let form = await moves.observe();
    const built = (text: string) => text.includes('textbox "Subject"') && /button "[^"]*Save"/.test(text);
    for (let tries = 0; tries < 5 && !built(form); tries++) form = await moves.observe();
    await moves.act([
      { op: 'fill', target: moves.ref(form, 'textbox', 'Subject'), value: { input: 'subject' } },
      { op: 'fill', target: moves.ref(form, 'textbox', 'Message Body'), value: { input: 'body' } },
      { op: 'click', target: moves.ref(form, 'button', /[^"]*Save/) },
    ]);
    const saved = await moves.observe();
    // The draft is in the Drafts folder: the mail view, then the folder, as a person checks.
    await moves.act([{ op: 'click', target: moves.ref(saved, 'button', /[^"]*Mail/) }]);
    const mail = await moves.observe();
    await moves.act([{ op: 'click', target: moves.ref(mail, 'link', /[^"]*Drafts/) }]);
    // The folder's list loads over XHR ("Loading..."): observe again until it shows the draft.
    let drafts = await moves.observe();
    for (let tries = 0; tries < 5 && !drafts.includes('⟦input:subject⟧'); tries++)
      drafts = await moves.observe();
    const row = messageRow(drafts);
    const read = await moves.act([{ op: 'read', target: row, as: 'listed' }]);
    // Its preview shows the body that was typed: a write reads back all it wrote.
    await moves.act([{ op: 'click', target: row }]);
    const preview = await moves.observe();
    expect(preview, preview).toContain('⟦input:body⟧');
    const completed = await moves.complete({
      outputs: ['listed'],
      checkpoint: {
        target: row,
        input: 'subject',
        match: 'contains',
        values: [
          {
            target: { frame: PREVIEW, locator: { by: 'text', text: '{{input.body}}' } },
            input: 'body',
          },
        ],
      },
    });
    if (!completed.ok) throw new Error(JSON.stringify(read) + JSON.stringify(completed) + preview);
  },
  cases: [
    ['Offsite agenda', 'Morning: roadmap. Afternoon: hiking.'],
    ['Re: 2', 'Yes.'],
    ['Cannot log in', 'Reset your password from the portal.'],
  ].map(([subject, body]) => ({
    inputs: { subject: subject!, body: body! },
    check: async (bed) => {
      const drafts = (await bed.state.findBySubject(subject!)).filter(
        (message) => message.folder === 'Drafts',
      );
      return drafts.length === 1;
    },
  })),
};

/** Bob's copy and Alice's Sent copy of a message, by subject (IMAP). */
async function sentTo(bed: RoundcubeApp, subject: string): Promise<{ received: number; sent: number }> {
  const bob = bed.seed.users[1]!;
  const received = (await bed.state.as(bob).messages()).filter((message) => message.subject === subject);
  const sent = (await bed.state.findBySubject(subject)).filter((message) => message.folder === 'Sent');
  return { received: received.length, sent: sent.length };
}

/**
 * Sends a message to a mailbox of the bed (irreversible: a sent mail cannot be called back),
 * through the bed's Postfix into Dovecot. Called as an agent calls it: held at the signature
 * gate, sent once approved; read back from the Sent folder's copy, as a person checks.
 */
const sendMessage: Operation<RoundcubeApp> = {
  name: 'roundcube_message_send',
  intent: 'Send a message with a subject and a body to a recipient',
  effect: 'irreversible',
  inputs: [
    { name: 'to', type: 'string' },
    { name: 'subject', type: 'string' },
    { name: 'body', type: 'string' },
  ],
  outputs: [{ name: 'listed', type: 'string', description: 'the message as the Sent folder lists it' }],
  startPath: INBOX,
  bound: { to: 'bob@example.test', subject: 'Budget review', body: 'Can we meet on Thursday?' },
  signIn: SIGN_IN,
  throughGate: { untouched: async (bed, inputs) => (await sentTo(bed, inputs.subject!)).received === 0 },
  async explore(moves) {
    const page = await moves.observe();
    await moves.act([{ op: 'click', target: moves.ref(page, 'button', /[^"]*Compose/) }]);
    let form = await moves.observe();
    const built = (text: string) => text.includes('textbox "Subject"') && /button "[^"]*Send"/.test(text);
    for (let tries = 0; tries < 5 && !built(form); tries++) form = await moves.observe();
    // The recipient box is a token widget with no name of its own: observe shows the label
    // "To" before its visible input and suggests that field as its target. The label's own
    // textarea is parked off the page; the input makes a token of the address on leaving it.
    const to = /\nTo\n\[([A-Za-z0-9]+)\] combobox ⇒ field "To" combobox/.exec(form)?.[1];
    expect(to, form).toBeDefined();
    await moves.act([
      { op: 'fill', target: { ref: to! }, value: { input: 'to' } },
      { op: 'fill', target: moves.ref(form, 'textbox', 'Subject'), value: { input: 'subject' } },
      { op: 'fill', target: moves.ref(form, 'textbox', 'Message Body'), value: { input: 'body' } },
      { op: 'click', target: moves.ref(form, 'button', /[^"]*Send/) },
    ]);
    // Roundcube says "Message sent successfully" on the form, then goes back to the mail view
    // by itself about a second later: observe until it has. The copy is in the Sent folder.
    let mail = await moves.observe();
    const inMail = (text: string) => /\[[A-Za-z0-9]+\] link "[^"]*Sent"/.test(text);
    for (let tries = 0; tries < 20 && !inMail(mail); tries++) mail = await moves.observe();
    await moves.act([{ op: 'click', target: moves.ref(mail, 'link', /[^"]*Sent/) }]);
    let sent = await moves.observe();
    for (let tries = 0; tries < 5 && !sent.includes('⟦input:subject⟧'); tries++) sent = await moves.observe();
    const row = messageRow(sent);
    const read = await moves.act([{ op: 'read', target: row, as: 'listed' }]);
    await moves.act([{ op: 'click', target: row }]);
    const preview = await moves.observe();
    expect(preview, preview).toContain('⟦input:body⟧');
    expect(preview).toContain('link "⟦input:to⟧"');
    const completed = await moves.complete({
      outputs: ['listed'],
      checkpoint: {
        target: row,
        input: 'subject',
        match: 'contains',
        values: [
          { target: { frame: PREVIEW, locator: { by: 'text', text: '{{input.body}}' } }, input: 'body' },
          // The preview's header names the recipient.
          {
            target: { frame: PREVIEW, locator: { by: 'role', role: 'link', name: '{{input.to}}' } },
            input: 'to',
          },
        ],
      },
    });
    if (!completed.ok) throw new Error(JSON.stringify(read) + JSON.stringify(completed) + preview);
  },
  cases: [
    ['Offsite agenda', 'Morning: roadmap. Afternoon: hiking.'],
    ['Re: 2', 'Yes.'],
    ['Invoice 2 for November', 'Paid today.'],
  ].map(([subject, body]) => ({
    inputs: { to: 'bob@example.test', subject: subject!, body: body! },
    check: async (bed) => {
      const copies = await sentTo(bed, subject!);
      return copies.received === 1 && copies.sent === 1;
    },
  })),
};

/**
 * Every case above replays in a new profile after a reset. A person's replays share one
 * profile, where Roundcube remembers the header details shown: the second preview opens with
 * them and without the Details link the capability clicks, and a replay that waited for the
 * link failed SURFACE_CHANGED. Both replays must answer, the second passing over the click.
 */
async function replayTwiceInOneProfile(capability: Capability, operation: Operation<RoundcubeApp>) {
  const context = await browser.newContext();
  const evidence = mkdtempSync(join(tmpdir(), 'lift-rc-profile-'));
  try {
    const page = await context.newPage();
    await signIn(page, app);
    for (const [round, test] of operation.cases.slice(0, 2).entries()) {
      const skipped: unknown[] = [];
      const result = await replayCapability(capability, test.inputs, {
        page,
        effectClass: 'read',
        evidenceDir: evidence,
        emit: (event) => {
          if (event.type === 'replay-step-skipped') skipped.push(event);
        },
      });
      expect(await test.check(app, result), JSON.stringify(result.outputs)).toBe(true);
      expect(skipped).toHaveLength(round === 0 ? 0 : 1);
    }
  } finally {
    await context.close();
    rmSync(evidence, { recursive: true, force: true });
  }
}

describe('Roundcube operations, discovered by a scripted explorer and replayed on new inputs', () => {
  for (const [title, operation] of [
    ['finds a message by subject and reads its sender (a read)', senderBySubject],
    ["reads a message's date from its header details (a read)", messageDate],
  ] as const) {
    it(
      title,
      async () => {
        const { record, log, capability } = await discoverRegisterReplay(app, browser, operation);
        records.push(record);
        expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
        expect(record.correct).toBe(3);
        await replayTwiceInOneProfile(capability!, operation);
      },
      OPERATION_TIMEOUT_MS,
    );
  }

  it(
    'saves a draft and reads it back from the Drafts folder (a visible write)',
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, saveDraft);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(3);
    },
    OPERATION_TIMEOUT_MS,
  );

  // The recipient box is a token widget whose label names a textarea parked off the page: the
  // field "To" is the visible input after the label (test/rungs/ui/token-widget-field.test.ts).
  it(
    'sends a message to a mailbox of the bed, held for a signature and sent once approved (an irreversible write)',
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, sendMessage);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(3);
    },
    OPERATION_TIMEOUT_MS,
  );
});
