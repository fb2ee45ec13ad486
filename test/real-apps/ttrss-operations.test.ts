import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import type { SignInRecipe } from '../../src/rungs/ui/sign-in.js';
import { startApp, type TtrssApp } from './bed.js';
import type { ExplorerMoves } from './explore.js';
import {
  type CaseResult,
  discoverRegisterReplay,
  formatRecord,
  type Operation,
  type OperationRecord,
} from './operations.js';

let app: TtrssApp;
let browser: Browser;
const records: OperationRecord[] = [];
// A discovery, a registration through the CLI and four replays with a reset each: minutes under load.
const OPERATION_TIMEOUT_MS = 420_000;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('ttrss'), launchBrowser()]);
});

afterAll(async () => {
  for (const record of records) console.log(formatRecord(record));
  await browser?.close();
  await app?.stop();
});

// tt-rss's labels are not tied to their boxes (no for=): the recipe names them by the text
// before them. The short form (--user --secret) finds no field it can fill ("element is not visible").
const SIGN_IN: Partial<SignInRecipe> = {
  fields: [
    {
      target: { frame: [], locator: { by: 'field', label: 'Login' } },
      value: { literal: 'admin' },
      op: 'fill',
    },
    {
      target: { frame: [], locator: { by: 'field', label: 'Password' } },
      value: { secret: 'ttrss_password' },
      op: 'fill',
    },
  ],
  submit: { click: { frame: [], locator: { by: 'role', role: 'button', name: 'Log in' } } },
};

const ref = (text: string, pattern: RegExp): { ref: string } => {
  const found = pattern.exec(text)?.[1];
  expect(found, text).toBeDefined();
  return { ref: found! };
};

/**
 * Preferences > Feeds, the feed found with the tab's search box by `input` (its title), and
 * its Edit Feed dialog opened by a click on its tree item.
 */
async function openFeedDialog(moves: ExplorerMoves, input: string): Promise<string> {
  const prefs = await moves.observe();
  await moves.act([{ op: 'click', target: moves.ref(prefs, 'tab', 'rss_feed Feeds') }]);
  const feeds = await moves.observe();
  await moves.act([
    { op: 'fill', target: ref(feeds, /\[([a-z0-9]+)\] searchbox/), value: { input } },
    { op: 'click', target: moves.ref(feeds, 'button', 'Search') },
  ]);
  const found = await moves.observe();
  await moves.act([{ op: 'click', target: moves.ref(found, 'treeitem', `⟦input:${input}⟧`) }]);
  const dialog = await moves.observe();
  expect(dialog).toContain('— dialog "Edit Feed":');
  return dialog;
}

/** An article's author by its title, in the headline list of All articles (combined mode). */
const articleAuthor: Operation<TtrssApp> = {
  name: 'ttrss_article_author',
  intent: "Read the author of an article by the article's title",
  effect: 'read',
  inputs: [{ name: 'title', type: 'string' }],
  outputs: [{ name: 'author', type: 'string' }],
  startPath: '/index.php',
  bound: { title: 'Release 2.0 notes' },
  signIn: SIGN_IN,
  async explore(moves) {
    const start = await moves.observe();
    await moves.act([{ op: 'click', target: moves.ref(start, 'treeitem', 'All articles') }]);
    const list = await moves.observe();
    // Each headline: its title's link, then the author's name on the next line.
    expect(list).toMatch(/\[[a-z0-9]+\] link "⟦input:title⟧"\nBob Stone\n/);
    await moves.act([
      { op: 'read', target: { locator: { by: 'pair', label: '{{input.title}}' } }, as: 'author' },
    ]);
    const done = await moves.complete({
      outputs: ['author'],
      checkpoint: {
        target: { locator: { by: 'role', role: 'link', name: '{{input.title}}' } },
        input: 'title',
      },
      examples: [{ outcome: 'not_found', inputs: { title: 'No such article' } }],
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    ...['Contact form returns 500', '2', 'Published'].map((title) => ({
      inputs: { title },
      check: async (bed: TtrssApp, result: CaseResult) =>
        result.outcome === 'found' && result.outputs.author === (await bed.state.article(title))?.author,
    })),
    {
      inputs: { title: 'Unread' },
      check: async (bed, result) =>
        result.outcome === 'not_found' && (await bed.state.article('Unread')) === undefined,
    },
  ],
};

/** The URL a feed is fetched from, by its title: the URL box of its Edit Feed dialog. */
const feedUrl: Operation<TtrssApp> = {
  name: 'ttrss_feed_url',
  intent: "Read the URL a feed is fetched from, by the feed's title",
  effect: 'read',
  inputs: [{ name: 'title', type: 'string' }],
  outputs: [{ name: 'url', type: 'string' }],
  startPath: '/prefs.php',
  bound: { title: 'Planet Debian' },
  signIn: SIGN_IN,
  async explore(moves) {
    const dialog = await openFeedDialog(moves, 'title');
    await moves.act([
      { op: 'read', target: ref(dialog, /\[([a-z0-9]+)\] textbox [^\n]*⇒ field "URL:"/), as: 'url' },
    ]);
    const done = await moves.complete({
      outputs: ['url'],
      checkpoint: { target: ref(dialog, /\[([a-z0-9]+)\] textbox [^\n]*⇒ field "Feed"/), input: 'title' },
      examples: [{ outcome: 'not_found', inputs: { title: 'No such feed' } }],
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    ...['Fresh articles', 'Kitchen blog', 'Northwind Status'].map((title) => ({
      inputs: { title },
      check: async (bed: TtrssApp, result: CaseResult) =>
        result.outcome === 'found' && result.outputs.url === (await bed.state.feedByTitle(title))?.url,
    })),
    {
      inputs: { title: 'Starred' },
      check: async (bed, result) =>
        result.outcome === 'not_found' && (await bed.state.feedByTitle('Starred')) === undefined,
    },
  ],
};

/**
 * Creates a label with a caption: Preferences > Labels > Create label asks for the caption in
 * a JavaScript prompt() and adds the label over XHR. tt-rss shows no label id anywhere; the
 * label's tree item is what the page shows of it.
 */
const createLabel: Operation<TtrssApp> = {
  name: 'ttrss_label_create',
  intent: 'Create a label with a caption and return the caption shown in the label list',
  effect: 'visible',
  inputs: [{ name: 'caption', type: 'string' }],
  outputs: [{ name: 'shown', type: 'string' }],
  startPath: '/prefs.php',
  bound: { caption: 'Needs reply' },
  signIn: SIGN_IN,
  async explore(moves) {
    const prefs = await moves.observe();
    await moves.act([{ op: 'click', target: moves.ref(prefs, 'tab', 'label_outline1 Labels') }]);
    const labels = await moves.observe();
    const asked = await moves.act([{ op: 'click', target: moves.ref(labels, 'button', 'Create label') }]);
    expect(asked[0]?.message).toContain('Please enter label caption:');
    await moves.act([{ op: 'dialog', response: 'accept', text: { input: 'caption' } }]);
    const after = await moves.observe();
    const item = { locator: { by: 'role', role: 'treeitem', name: '{{input.caption}}' } };
    expect(after).toContain('treeitem "⟦input:caption⟧"');
    await moves.act([{ op: 'read', target: item, as: 'shown' }]);
    const done = await moves.complete({ outputs: ['shown'], checkpoint: { target: item, input: 'caption' } });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: ['Error 500', 'Later today', 'Q3'].map((caption) => ({
    inputs: { caption },
    check: async (bed, result) =>
      (await bed.state.labels()).filter((label) => label.caption === caption).length === 1 &&
      result.outputs.shown === caption,
  })),
};

/** Renames a feed through its Edit Feed dialog, then finds it again by its new title. */
const renameFeed: Operation<TtrssApp> = {
  name: 'ttrss_feed_rename',
  intent: 'Rename a feed, by its title, and return the new title shown',
  effect: 'visible',
  inputs: [
    { name: 'title', type: 'string' },
    { name: 'newTitle', type: 'string' },
  ],
  outputs: [{ name: 'shown', type: 'string' }],
  startPath: '/prefs.php',
  bound: { title: 'Kitchen blog', newTitle: 'Canteen news' },
  signIn: SIGN_IN,
  async explore(moves) {
    const dialog = await openFeedDialog(moves, 'title');
    await moves.act([
      {
        op: 'fill',
        target: ref(dialog, /\[([a-z0-9]+)\] textbox [^\n]*⇒ field "Feed"/),
        value: { input: 'newTitle' },
      },
      { op: 'click', target: moves.ref(dialog, 'button', 'Save') },
    ]);
    // The tree reloads with the old title in the search box: the feed is found by its new one.
    const saved = await moves.observe();
    await moves.act([
      { op: 'fill', target: ref(saved, /\[([a-z0-9]+)\] searchbox/), value: { input: 'newTitle' } },
      { op: 'click', target: moves.ref(saved, 'button', 'Search') },
    ]);
    const found = await moves.observe();
    expect(found).toContain('treeitem "⟦input:newTitle⟧"');
    const item = { locator: { by: 'role', role: 'treeitem', name: '{{input.newTitle}}' } };
    await moves.act([{ op: 'read', target: item, as: 'shown' }]);
    const done = await moves.complete({
      outputs: ['shown'],
      checkpoint: { target: item, input: 'newTitle' },
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    ['Planet Debian', 'Debian planet'],
    ['Fresh articles', 'Fresh'],
    ['Release notes', 'Releases'],
  ].map(([title, newTitle]) => ({
    inputs: { title: title!, newTitle: newTitle! },
    check: async (bed, result) =>
      (await bed.state.feedByTitle(newTitle!)) !== undefined &&
      (await bed.state.feedByTitle(title!)) === undefined &&
      result.outputs.shown === newTitle,
  })),
};

/** Unsubscribes from a feed (irreversible: its articles go with it) from its Edit Feed dialog. */
const unsubscribe: Operation<TtrssApp> = {
  name: 'ttrss_feed_unsubscribe',
  intent: 'Unsubscribe from a feed, by its title, and return the count of feeds the search then shows',
  effect: 'irreversible',
  inputs: [{ name: 'title', type: 'string' }],
  outputs: [{ name: 'shown', type: 'string' }],
  startPath: '/prefs.php',
  bound: { title: 'Kitchen blog' },
  signIn: SIGN_IN,
  async explore(moves) {
    const dialog = await openFeedDialog(moves, 'title');
    const confirmed = await moves.act([
      { op: 'click', target: moves.ref(dialog, 'button', 'Unsubscribe') },
      { op: 'dialog', response: 'accept' },
    ]);
    expect(confirmed[0]?.message).toContain('Unsubscribe from');
    const after = await moves.observe();
    expect(after).toContain('(0 feeds)');
    await moves.act([{ op: 'read', target: { locator: { by: 'text', text: '(0 feeds)' } }, as: 'shown' }]);
    const done = await moves.complete({
      outputs: ['shown'],
      // The search box still holds the title that found the feed.
      checkpoint: { target: ref(after, /\[([a-z0-9]+)\] searchbox/), input: 'title' },
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  throughGate: {
    untouched: async (bed, inputs) => (await bed.state.feedByTitle(String(inputs.title))) !== undefined,
  },
  cases: ['Planet Debian', 'Release notes', 'Fresh articles'].map((title) => ({
    inputs: { title },
    check: async (bed, result) =>
      (await bed.state.feedByTitle(title)) === undefined &&
      (await bed.state.feeds()).length === 4 &&
      result.outputs.shown === '(0 feeds)',
  })),
};

describe('Tiny Tiny RSS operations, discovered by a scripted explorer and replayed on new inputs', () => {
  // Fails today: complete refuses, CHECK_FAILED, "the not_found example reached a step that could
  // write before the replay knew its answer": tt-rss loads a feed's headlines by an XHR POST to
  // backend.php, which discovery counts as a write (a POST is taken for a write, so that none is
  // ever sent twice), and a write's examples are rehearsed only up to the step before it.
  // Needs a way to tell an application's read-only POST from a write.
  it.fails(
    "reads an article's author by its title, and answers not_found for a title no article has",
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, articleAuthor);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(articleAuthor.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );

  // Fails today (after items 1 and 2): complete refuses the not_found example, CHECK_FAILED, "After
  // step 0 the not_found example's page shows no heading or message that the found path did not
  // show." (before: the URL box's read was rejected, "The read of url did not hold a string", every
  // box of the page printed as a password field). Needs not_found from an absent tree item (item
  // 2), field reads (item 3).
  it.fails(
    'reads a feed URL from its Edit Feed dialog, and answers not_found for a title no feed has',
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, feedUrl);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(feedUrl.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );

  // Fails today (after items 1 and 2): complete refuses, CHECK_FAILED, "The capability was compiled
  // but its rehearsal failed: the discovery’s inputs ended in SURFACE_CHANGED: The start page
  // …/prefs.php does not match the capability's fingerprint.. Nothing was written." (tt-rss reopens
  // the Preferences tab last shown). Before the rehearsal it compiled and every replay answered
  // "The page did not reach the expected state (treeitem \"Error 500\" visible)"; under `lift
  // session` the prompt's click once hung (900 s). No feature of issue 41 names a prompt.
  it.fails('creates a label through the caption prompt (a visible write)', async () => {
    const { record, log } = await discoverRegisterReplay(app, browser, createLabel);
    records.push(record);
    expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
    expect(record.correct).toBe(createLabel.cases.length);
  }, 180_000);

  // Fails today (after items 1 and 2), as before: complete refuses, CHECK_FAILED, "The capability
  // cannot be compiled: the checkpoint never reads back 'title', typed into the page": a renamed
  // feed's old title is typed into the search box and shown nowhere once it is renamed.
  it.fails(
    'renames a feed through its Edit Feed dialog (a visible write)',
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, renameFeed);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(renameFeed.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );

  // Fails today: it compiles (a write kept on its answer: the unsubscribed feed's tree item is
  // gone from a fresh visit), is held at the gate, and every approved call fails safely: case 0
  // UNEXPECTED_STATE "An undeclared dialog opened: confirm: Unsubscribe from Planet Debian?" (the
  // confirm accepted in discovery is not kept), cases 1-2 SURFACE_CHANGED "The start page
  // …/prefs.php does not match the capability's fingerprint" (tt-rss reopens the last tab).
  it.fails(
    'unsubscribes from a feed after its confirm dialog, held at the signature gate (irreversible)',
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, unsubscribe);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
      expect(record.correct).toBe(unsubscribe.cases.length);
    },
    OPERATION_TIMEOUT_MS,
  );
});
