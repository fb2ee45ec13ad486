import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { type NotesApp, startApp } from './bed.js';
import { NOTES } from './notes/seed-data.js';
import {
  type CaseResult,
  discoverRegisterReplay,
  formatRecord,
  type Operation,
  type OperationRecord,
} from './operations.js';

let app: NotesApp;
let browser: Browser;
const records: OperationRecord[] = [];
// A discovery, a registration through the CLI and four replays with a reset each: minutes under load.
const OPERATION_TIMEOUT_MS = 420_000;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('notes'), launchBrowser()]);
});

afterAll(async () => {
  for (const record of records) console.log(formatRecord(record));
  await browser?.close();
  await app?.stop();
});

/**
 * The text a reader sees of stored HTML: a block's tags as spaces, an inline one's as nothing
 * ("<em>Resolved</em>." reads "Resolved."), entities decoded, runs of space as one.
 */
function textOf(html: string): string {
  return html
    .replace(/<\/?(?:p|div|li|ul|ol|br|h[1-6]|blockquote|table|tr|td|th)\b[^>]*>/gi, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

const sameText = (shown: unknown, html: string | undefined) =>
  html !== undefined &&
  String(shown)
    .replace(/[•\s]+/g, ' ')
    .trim() === textOf(html);

/**
 * The view page's own line "Note 3 by Jane Doe, updated …" holds the id, inside the line: a
 * pattern with one group names it, as complete's refusal of the whole-text form says to.
 */
const noteLine = { locator: { by: 'text', pattern: 'Note (\\d+) by' } };

// The editor's toolbar has a Save button of its own (CKEditor's save plugin) before the form's.
function formSave(form: string): { ref: string } {
  const saves = [...form.matchAll(/\[([a-z0-9]+)\] button "Save"/g)].map((match) => match[1]!);
  expect(saves.length, form).toBe(2);
  return { ref: saves[1]! };
}

/** The editable body inside CKEditor's iframe, as observe prints it (a ref of the frame's own). */
function editorBody(form: string): { ref: string } {
  const ref =
    /frame "Editor, body"[^\n]*\n(?: {2}[^\n]*\n)*? {2}\[(f[0-9]+e[0-9]+)\] textbox "Editor, body"/.exec(
      form,
    )?.[1];
  expect(ref, form).toBeDefined();
  return { ref: ref! };
}

/** A note's author by its title, in the list's "All notes" table (a key column). */
const noteAuthor: Operation<NotesApp> = {
  name: 'notes_note_author',
  intent: "Look up who last edited a note, by the note's title",
  effect: 'read',
  inputs: [{ name: 'title', type: 'string' }],
  outputs: [{ name: 'author', type: 'string' }],
  startPath: '/index.php',
  bound: { title: 'Cannot log in' },
  async explore(moves) {
    const page = await moves.observe();
    expect(page).toMatch(/table "All notes" \(5 rows\): Id \| Title \| Author \| Updated/);
    const row = { by: 'cell', table: 'All notes', key: 'Title', row: '{{input.title}}' };
    await moves.act([{ op: 'read', target: { locator: { ...row, column: 'Author' } }, as: 'author' }]);
    const done = await moves.complete({
      outputs: ['author'],
      checkpoint: { target: { locator: { ...row, column: 'Title' } }, input: 'title' },
      examples: [{ outcome: 'not_found', inputs: { title: 'No such note' } }],
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    ...['Save', 'Meeting 2', 'Contact form returns 500'].map((title) => ({
      inputs: { title },
      check: async (bed: NotesApp, result: CaseResult) =>
        result.outcome === 'found' && result.outputs.author === (await bed.state.noteByTitle(title))?.author,
    })),
    {
      inputs: { title: 'Error 404' },
      check: async (bed, result) =>
        result.outcome === 'not_found' && (await bed.state.noteByTitle('Error 404')) === undefined,
    },
  ],
};

/**
 * A note's body as its reader sees it, by the note's id: the view page, reached by a URL built
 * from the id. A missing id is the page's 404, "There is no note 999.", which names the id.
 */
const noteBody: Operation<NotesApp> = {
  name: 'notes_note_body',
  intent: "Read the text of a note's body by the note's id",
  effect: 'read',
  inputs: [{ name: 'id', type: 'string' }],
  outputs: [{ name: 'body', type: 'string' }],
  startPath: '/index.php',
  bound: { id: '2' },
  async explore(moves) {
    await moves.act([{ op: 'navigate', url: '/view.php?id={{input.id}}' }]);
    const page = await moves.observe();
    // A one-character id stands beside words, so observe shows it as the page's own (issue 41.6).
    expect(page).toContain('Note 2 by Jane Doe');
    await moves.act([
      { op: 'read', target: { locator: { by: 'role', role: 'article', name: 'Body' } }, as: 'body' },
    ]);
    const done = await moves.complete({
      outputs: ['body'],
      checkpoint: { target: noteLine, input: 'id', match: 'contains' },
      examples: [{ outcome: 'not_found', inputs: { id: '999' } }],
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    ...['3', '12', '5'].map((id) => ({
      inputs: { id },
      check: async (bed: NotesApp, result: CaseResult) =>
        result.outcome === 'found' && sameText(result.outputs.body, (await bed.state.note(Number(id)))?.body),
    })),
    {
      inputs: { id: '4' },
      check: async (bed, result) => result.outcome === 'not_found' && (await bed.state.note(4)) === undefined,
    },
  ],
};

/**
 * Creates a note with a title and a body typed into CKEditor 4's iframe; the new id is the
 * `id` of the page the save leads to (view.php?id=13).
 */
const createNote: Operation<NotesApp> = {
  name: 'notes_note_create',
  intent: "Create a note with a title and a body, and return the new note's id",
  effect: 'visible',
  inputs: [
    { name: 'title', type: 'string' },
    { name: 'body', type: 'string' },
  ],
  outputs: [{ name: 'id', type: 'integer' }],
  startPath: '/edit.php',
  bound: { title: 'Release checklist', body: 'Tag the build, then announce it.' },
  async explore(moves) {
    const form = await moves.observe();
    expect(form).toContain('# New note');
    await moves.act([
      { op: 'fill', target: moves.ref(form, 'textbox', 'Title'), value: { input: 'title' } },
      { op: 'fill', target: editorBody(form), value: { input: 'body' } },
      { op: 'click', target: formSave(form) },
    ]);
    const saved = await moves.observe();
    expect(saved).toMatch(/! status: Note \d+ created\./);
    const done = await moves.complete({
      outputs: ['id'],
      from: { id: { url: { param: 'id' } } },
      checkpoint: {
        target: { locator: { by: 'role', role: 'heading', name: '{{input.title}}' } },
        input: 'title',
        values: [{ target: { locator: { by: 'text', text: '{{input.body}}' } }, input: 'body' }],
      },
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    ['Error 500 after deploy', 'Rolled back at 10:02.'],
    ['Save', 'A second note titled like the button.'],
    ['Q3 goals', 'Ship 2.1; hire two people.'],
  ].map(([title, body]) => ({
    inputs: { title: title!, body: body! },
    check: async (bed, result) => {
      const made = (await bed.state.notes()).filter(
        (note) => note.id > Math.max(...NOTES.map((seeded) => seeded.id)),
      );
      return (
        made.length === 1 &&
        made[0]!.title === title &&
        textOf(made[0]!.body) === body &&
        result.outputs.id === made[0]!.id
      );
    },
  })),
};

/** Replaces a note's body, by its id, in the edit form's CKEditor 4 (the whole text replaced). */
const updateBody: Operation<NotesApp> = {
  name: 'notes_note_update',
  intent: "Replace the body of a note, by the note's id, and return the message shown",
  effect: 'visible',
  inputs: [
    { name: 'id', type: 'string' },
    { name: 'body', type: 'string' },
  ],
  outputs: [{ name: 'message', type: 'string' }],
  startPath: '/index.php',
  bound: { id: '3', body: 'Status: Reopened. The reset link expires too soon.' },
  async explore(moves) {
    await moves.act([{ op: 'navigate', url: '/edit.php?id={{input.id}}' }]);
    const form = await moves.observe();
    expect(form).toContain('# Edit note');
    await moves.act([
      { op: 'fill', target: editorBody(form), value: { input: 'body' } },
      { op: 'click', target: formSave(form) },
    ]);
    const saved = await moves.observe();
    expect(saved).toContain('! status: Note saved.');
    await moves.act([
      { op: 'read', target: { locator: { by: 'role', role: 'status', name: '' } }, as: 'message' },
    ]);
    const done = await moves.complete({
      outputs: ['message'],
      checkpoint: {
        target: { locator: { by: 'text', text: '{{input.body}}' } },
        input: 'body',
        values: [{ target: noteLine, input: 'id', match: 'contains' }],
      },
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    ['2', 'Fixed in 2.0.1: attachments are scanned first.'],
    ['12', 'Agenda moved to Tuesday.'],
    ['1', 'Save often.'],
  ].map(([id, body]) => ({
    inputs: { id: id!, body: body! },
    check: async (bed, result) => {
      const note = await bed.state.note(Number(id));
      return note !== undefined && textOf(note.body) === body && result.outputs.message === 'Note saved.';
    },
  })),
};

/** Deletes a note by its id from its view page, after the page's confirm dialog (irreversible). */
const deleteNote: Operation<NotesApp> = {
  name: 'notes_note_delete',
  intent: 'Delete a note by its id and return the message shown',
  effect: 'irreversible',
  inputs: [{ name: 'id', type: 'string' }],
  outputs: [{ name: 'message', type: 'string' }],
  startPath: '/index.php',
  bound: { id: '5' },
  async explore(moves) {
    await moves.act([{ op: 'navigate', url: '/view.php?id={{input.id}}' }]);
    const page = await moves.observe();
    const confirmed = await moves.act([
      { op: 'click', target: moves.ref(page, 'button', 'Delete') },
      { op: 'dialog', response: 'accept' },
    ]);
    expect(confirmed[0]?.message).toContain('Delete this note for good?');
    const after = await moves.observe();
    expect(after).toContain('! status: Note 5 deleted.');
    await moves.act([
      { op: 'read', target: { locator: { by: 'role', role: 'status', name: '' } }, as: 'message' },
    ]);
    const done = await moves.complete({
      outputs: ['message'],
      checkpoint: {
        target: { locator: { by: 'text', text: 'Note {{input.id}} deleted.' } },
        input: 'id',
        match: 'contains',
      },
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  throughGate: { untouched: async (bed, inputs) => (await bed.state.note(Number(inputs.id))) !== undefined },
  cases: ['2', '12', '3'].map((id) => ({
    inputs: { id },
    check: async (bed, result) =>
      (await bed.state.note(Number(id))) === undefined &&
      (await bed.state.notes()).length === NOTES.length - 1 &&
      result.outputs.message === `Note ${id} deleted.`,
  })),
};

describe('Notes operations on a CKEditor 4 page, discovered by a scripted explorer and replayed on new inputs', () => {
  // A title no note has is a row the list does not show, with no message: the not_found example
  // is taken as a row absent from a list built as discovery saw it, and replay answers it so.
  it(
    "looks up a note's author by its title, and answers not_found for a title no note has",
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, noteAuthor);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(noteAuthor.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );

  // The id stands inside the line "Note 3 by Jane Doe, updated …": the checkpoint is a text
  // pattern with one group (complete refuses the whole-text form and says so).
  it(
    "reads a note's body by its id, and answers not_found for an id with no note (a read)",
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, noteBody);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(noteBody.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );

  // The one-time "Note saved." is left out of the read-back, and the id is read back inside its
  // line by the same pattern as the lookup's.
  it(
    "replaces a note's body in CKEditor 4 (a visible write)",
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, updateBody);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(updateBody.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );

  it(
    "creates a note whose body is typed into CKEditor 4's iframe (a visible write)",
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, createNote);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(createNote.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );

  // A delete never leaves the page its write led to: the one-time "Note 5 deleted." is all the
  // proof it has, and the rehearsal keeps it with an answer run (a fresh visit shows no such text).
  it(
    'deletes a note after its confirm dialog, held at the signature gate (irreversible)',
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, deleteNote);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(deleteNote.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );
});
