import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { type RedmineApp, startApp } from './bed.js';
import {
  type CaseResult,
  discoverRegisterReplay,
  formatRecord,
  type Operation,
  type OperationRecord,
} from './operations.js';
import { REDMINE_ISSUES } from './redmine/seed-data.js';

let app: RedmineApp;
let browser: Browser;
const records: OperationRecord[] = [];
// A discovery, a registration through the CLI and four replays with a reset each: minutes under load.
const OPERATION_TIMEOUT_MS = 420_000;
const SEEDED_ISSUES = REDMINE_ISSUES.length;

// The first start on a machine runs Redmine's migrations (minutes; later starts load their cache).
beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('redmine'), launchBrowser()]);
}, 900_000);

afterAll(async () => {
  for (const record of records) console.log(formatRecord(record));
  await browser?.close();
  await app?.stop();
});

/**
 * The `#` of an issue: the issue page's heading ("Bug #2", "Feature #3") holds it. Its name is
 * matched in part (`exact: false`), as complete's refusal of the whole-name form says to.
 */
const issueHeading = { locator: { by: 'role', role: 'heading', name: '#{{input.id}}', exact: false } };
// "Status" labels the issue's attribute and every "Status changed from … to …" of its history.
const statusValue = { locator: { by: 'pair', label: 'Status' }, nth: 1 };

/**
 * An issue's status by its number: the issue page, reached by a URL built from the number. A
 * number with no issue is Redmine's 404 page ("The page you were trying to access doesn't
 * exist or has been removed."), given to complete as the not_found example.
 */
const issueStatus: Operation<RedmineApp> = {
  name: 'redmine_issue_status',
  intent: "Read an issue's status by the issue's number",
  effect: 'read',
  inputs: [{ name: 'id', type: 'string' }],
  outputs: [{ name: 'status', type: 'string' }],
  startPath: '/projects',
  bound: { id: '2' },
  async explore(moves) {
    await moves.act([{ op: 'navigate', url: '/issues/{{input.id}}' }]);
    const page = await moves.observe();
    expect(page).toContain('## Bug #⟦input:id⟧');
    expect(page).toMatch(/\nStatus:\n/);
    await moves.act([{ op: 'read', target: statusValue, as: 'status' }]);
    const done = await moves.complete({
      outputs: ['status'],
      checkpoint: { target: issueHeading, input: 'id', match: 'contains' },
      examples: [{ outcome: 'not_found', inputs: { id: '999' } }],
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    // Subject "New" with status Resolved; subject "Closed" with status Resolved; a two-digit id.
    ...['3', '10', '12'].map((id) => ({
      inputs: { id },
      check: async (bed: RedmineApp, result: CaseResult) =>
        result.outcome === 'found' && result.outputs.status === (await bed.state.issue(Number(id)))?.status,
    })),
    {
      inputs: { id: '404' },
      check: async (bed, result) =>
        result.outcome === 'not_found' && (await bed.state.issue(404)) === undefined,
    },
  ],
};

/** A user's email by login in Administration > Users (a key column; logins `al` and `user`). */
const userEmail: Operation<RedmineApp> = {
  name: 'redmine_user_email',
  intent: "Look up a Redmine user's email address by login",
  effect: 'read',
  inputs: [{ name: 'login', type: 'string' }],
  outputs: [{ name: 'email', type: 'string' }],
  startPath: '/users',
  bound: { login: 'jdoe' },
  async explore(moves) {
    const page = await moves.observe();
    expect(page).toMatch(/table "Users" \(5 rows\): Login \| First name \| Last name \| Email \|/);
    const row = { by: 'cell', table: 'Users', key: 'Login', row: '{{input.login}}' };
    await moves.act([{ op: 'read', target: { locator: { ...row, column: 'Email' } }, as: 'email' }]);
    const done = await moves.complete({
      outputs: ['email'],
      checkpoint: { target: { locator: { ...row, column: 'Login' } }, input: 'login' },
      // A login nobody has: the list shows no row for it.
      examples: [{ outcome: 'not_found', inputs: { login: 'nobody' } }],
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    ...['al', 'user', 'bob'].map((login) => ({
      inputs: { login },
      check: async (bed: RedmineApp, result: CaseResult) =>
        result.outcome === 'found' && result.outputs.email === (await bed.state.userByLogin(login))?.mail,
    })),
    {
      inputs: { login: 'carol' },
      check: async (bed, result) =>
        result.outcome === 'not_found' && (await bed.state.userByLogin('carol')) === undefined,
    },
  ],
};

/**
 * Creates an issue in Northwind Web with a subject and a description (a write every member
 * sees); the new issue's number comes from the flash "Issue #13 created.".
 */
const createIssue: Operation<RedmineApp> = {
  name: 'redmine_issue_create',
  intent:
    "Create an issue in the Northwind Web project with a subject and a description, and return the new issue's number",
  effect: 'visible',
  inputs: [
    { name: 'subject', type: 'string' },
    { name: 'description', type: 'string' },
  ],
  outputs: [{ name: 'id', type: 'integer' }],
  startPath: '/projects/web/issues/new',
  bound: {
    subject: 'Checkout button does nothing',
    description: 'Clicking Checkout on Safari does nothing.',
  },
  async explore(moves) {
    const form = await moves.observe();
    expect(form).toContain('## New issue');
    await moves.act([
      { op: 'fill', target: moves.ref(form, 'textbox', 'Subject *'), value: { input: 'subject' } },
      { op: 'fill', target: moves.ref(form, 'textbox', 'Description'), value: { input: 'description' } },
      { op: 'click', target: moves.ref(form, 'button', 'Create') },
    ]);
    const created = await moves.observe();
    expect(created).toMatch(/Issue\n\[[a-z0-9]+\] link "#\d+"\ncreated\./);
    const done = await moves.complete({
      outputs: ['id'],
      from: { id: { message: { pattern: 'Issue #(\\d+) created' } } },
      checkpoint: {
        target: { locator: { by: 'role', role: 'heading', name: '{{input.subject}}' } },
        input: 'subject',
        values: [
          { target: { locator: { by: 'text', text: '{{input.description}}' } }, input: 'description' },
        ],
      },
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    ['Error 500 on checkout', 'Seen twice on Monday.'],
    ['Cannot log in', 'The form says the session expired.'],
    ['Q3', 'Plan the third quarter.'],
  ].map(([subject, description]) => ({
    inputs: { subject: subject!, description: description! },
    check: async (bed, result) => {
      const made = await bed.state.issues({ subject: subject! });
      return (
        made.length === 1 &&
        made[0]!.description === description &&
        made[0]!.project === 'Northwind Web' &&
        result.outputs.id === made[0]!.id
      );
    },
  })),
};

/** Sets an issue's status through the issue's Edit form (a write the issue's watchers see). */
const setStatus: Operation<RedmineApp> = {
  name: 'redmine_issue_set_status',
  intent: "Set the status of an issue, by the issue's number, and return the status shown",
  effect: 'visible',
  inputs: [
    { name: 'id', type: 'string' },
    {
      name: 'status',
      type: 'string',
      description: 'New, In Progress, Resolved, Feedback, Closed or Rejected',
    },
  ],
  outputs: [{ name: 'shown', type: 'string' }],
  startPath: '/projects',
  bound: { id: '8', status: 'In Progress' },
  async explore(moves) {
    await moves.act([{ op: 'navigate', url: '/issues/{{input.id}}' }]);
    const page = await moves.observe();
    // The issue's own Edit comes first; the history's notes have an Edit each.
    const edit = /\[([a-z0-9]+)\] link "Edit"/.exec(page)?.[1];
    expect(edit, page).toBeDefined();
    await moves.act([{ op: 'click', target: { ref: edit! } }]);
    const form = await moves.observe();
    expect(form).toContain('### Edit');
    await moves.act([
      { op: 'select', target: moves.ref(form, 'combobox', 'Status *'), value: { input: 'status' } },
      { op: 'click', target: moves.ref(form, 'button', 'Submit') },
    ]);
    const saved = await moves.observe();
    expect(saved).toContain('Successful update.');
    await moves.act([{ op: 'read', target: statusValue, as: 'shown' }]);
    const done = await moves.complete({
      outputs: ['shown'],
      checkpoint: {
        target: statusValue,
        input: 'status',
        values: [{ target: issueHeading, input: 'id', match: 'contains' }],
      },
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    ['2', 'Resolved'],
    ['3', 'Closed'],
    ['12', 'Feedback'],
  ].map(([id, status]) => ({
    inputs: { id: id!, status: status! },
    check: async (bed, result) =>
      (await bed.state.issue(Number(id)))?.status === status && result.outputs.shown === status,
  })),
};

/**
 * Deletes an issue by its number (irreversible: its history goes with it). The issue page's
 * Delete sits in an "Actions" drop-down that is a span, not a control; the issue list's row
 * has an "Actions" link to the same menu. The explorer filters the list to the one issue by
 * its number (the list's own `issue_id` filter), so the row's Actions link is the page's only
 * one, opens the menu, chooses "Delete issue" and accepts the confirm dialog. The list comes
 * back with "Successful deletion." and the filter's box still holding the number.
 */
const deleteIssue: Operation<RedmineApp> = {
  name: 'redmine_issue_delete',
  intent: 'Delete an issue by its number and return the message Redmine shows',
  effect: 'irreversible',
  inputs: [{ name: 'id', type: 'string' }],
  outputs: [{ name: 'message', type: 'string' }],
  startPath: '/projects',
  bound: { id: '9' },
  async explore(moves) {
    await moves.act([{ op: 'navigate', url: '/issues?set_filter=1&status_id=*&issue_id={{input.id}}' }]);
    const list = await moves.observe();
    expect(list).toMatch(/table "Issues" \(1 row\): Check all\/Uncheck all \| # \|/);
    const actions = /\| \[[a-z0-9]+\] ⟦input:id⟧ \|.*\[([a-z0-9]+)\] Actions \|/.exec(list)?.[1];
    expect(actions, list).toBeDefined();
    await moves.act([{ op: 'click', target: { ref: actions! } }]);
    const menu = await moves.observe();
    const confirmed = await moves.act([
      { op: 'click', target: moves.ref(menu, 'link', 'Delete issue') },
      { op: 'dialog', response: 'accept' },
    ]);
    expect(confirmed[0]?.message).toContain('Are you sure you want to delete the selected issue(s)?');
    const after = await moves.observe();
    expect(after).toContain('Successful deletion.');
    expect(after).toContain('No data to display');
    const filterBox = /\[([a-z0-9]+)\] textbox ⟦input:id⟧/.exec(after)?.[1];
    expect(filterBox, after).toBeDefined();
    await moves.act([
      { op: 'read', target: { locator: { by: 'text', text: 'Successful deletion.' } }, as: 'message' },
    ]);
    const done = await moves.complete({
      outputs: ['message'],
      checkpoint: { target: { ref: filterBox! }, input: 'id' },
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  throughGate: { untouched: async (bed, inputs) => (await bed.state.issue(Number(inputs.id))) !== undefined },
  cases: ['3', '12', '7'].map((id) => ({
    inputs: { id },
    check: async (bed, result) =>
      (await bed.state.issue(Number(id))) === undefined &&
      (await bed.state.issues()).length === SEEDED_ISSUES - 1 &&
      result.outputs.message === 'Successful deletion.',
  })),
};

describe('Redmine operations, discovered by a scripted explorer and replayed on new inputs', () => {
  // The heading "Bug #2" holds the number: the checkpoint names it in part (`exact: false`);
  // named "#{{input.id}}" whole it matches nothing, which complete now refuses on the spot.
  it(
    "reads an issue's status by its number, and answers not_found for a number with no issue",
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, issueStatus);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(issueStatus.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );

  // A login nobody has is a row the user list does not show, with no message: taken as a row
  // absent from a list built as discovery saw it, and answered not_found so.
  it(
    "looks up a user's email by login, and answers not_found for a login nobody has",
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, userEmail);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(userEmail.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );

  // The flash "Issue #13 created." is shown once, by the answer to the create: its number is read
  // there, and the rehearsal reads the issue back from a fresh visit of its page, flash left out.
  it(
    "creates an issue and returns its number from Redmine's flash (a visible write)",
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, createIssue);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(createIssue.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );

  // The status is read back on the issue's page, its heading named in part as the lookup's is.
  it(
    "sets an issue's status through its Edit form (a visible write)",
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, setStatus);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(setStatus.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );

  // A delete never leaves the page its write led to: its notice is all the proof it has, and the
  // rehearsal keeps it with an answer run.
  it(
    'deletes an issue from its row of the filtered list, held at the signature gate (irreversible)',
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, deleteIssue);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(deleteIssue.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );
});
