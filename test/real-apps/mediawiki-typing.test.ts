import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { type MediaWikiApp, startApp } from './bed.js';
import { MEDIAWIKI_PAGES } from './mediawiki/seed-data.js';
import { type CaseResult, discoverRegisterReplay, formatRecord, type Operation } from './operations.js';

// Typing as a person on MediaWiki's edit textarea (issue 41, item 4): a line appended at the
// end of a page that keeps its text (Control+End, then type with clear:false), and a page
// written from a template of several inputs and literal wikitext. Checked in the wiki's own state.
let app: MediaWikiApp;
let browser: Browser;
const OPERATION_TIMEOUT_MS = 480_000;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('mediawiki'), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const signIn = { page: '/index.php?title=Special:UserLogin', open: '/index.php?title=Special:UserLogin' };
const seedText = (title: string) => MEDIAWIKI_PAGES.find((page) => page.title === title)?.text ?? '';
const heading = { locator: { by: 'role', role: 'heading', name: '{{input.title}}' } };

const appendLine: Operation<MediaWikiApp> = {
  name: 'mediawiki_line_append',
  intent: 'Append a line at the end of a wiki page, keeping all the text it has',
  effect: 'visible',
  inputs: [
    { name: 'title', type: 'string' },
    { name: 'line', type: 'string' },
  ],
  outputs: [{ name: 'url', type: 'string' }],
  startPath: '/index.php/Main_Page',
  bound: { title: 'Tools', line: 'Ask the on-call engineer before changing any tool.' },
  signIn,
  async explore(moves) {
    await moves.act([{ op: 'navigate', url: '/index.php?title={{input.title}}&action=edit' }]);
    const form = await moves.observe();
    const editor = moves.ref(form, 'textbox', 'Wikitext source editor');
    await moves.act([
      { op: 'press', target: editor, key: 'Control+End' },
      { op: 'type', target: editor, value: { template: '\n\n{{line}}' }, clear: false },
      { op: 'click', target: moves.ref(form, 'button', 'Save changes') },
    ]);
    const saved = await moves.observe();
    expect(saved).toContain('# ⟦input:title⟧');
    const done = await moves.complete({
      outputs: ['url'],
      from: { url: { url: {} } },
      checkpoint: {
        target: heading,
        input: 'title',
        values: [{ target: { locator: { by: 'text', text: '{{input.line}}' } }, input: 'line' }],
      },
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    ['Cannot log in', 'Reset the password from the admin page.'],
    ['Server inventory', 'Decommissioned hosts move to the archive.'],
    ['Onboarding handbook', 'Questions go to the people team.'],
  ].map(([title, line]) => ({
    inputs: { title: title!, line: line! },
    // Everything the page held is still there, line by line, and the line follows it.
    check: async (bed: MediaWikiApp, result: CaseResult) => {
      const text = (await bed.state.page(title!))?.text ?? '';
      const kept = seedText(title!)
        .split('\n')
        .filter((held) => held.trim() !== '')
        .every((held) => text.includes(held));
      if (!kept || !text.trimEnd().endsWith(line!)) console.log(`${title}: ${JSON.stringify(text)}`);
      return result.outcome === 'found' && kept && text.trimEnd().endsWith(`\n${line}`);
    },
  })),
};

const templatePage: Operation<MediaWikiApp> = {
  name: 'mediawiki_page_from_template',
  intent: 'Create a wiki page with a heading, a body and a category, and return its URL',
  effect: 'visible',
  inputs: [
    { name: 'title', type: 'string' },
    { name: 'body', type: 'string' },
    { name: 'category', type: 'string' },
  ],
  outputs: [{ name: 'url', type: 'string' }],
  startPath: '/index.php/Main_Page',
  bound: { title: 'Printer setup', body: 'Install the driver from the share.', category: 'Handbooks' },
  signIn,
  async explore(moves) {
    await moves.act([{ op: 'navigate', url: '/index.php?title={{input.title}}&action=edit' }]);
    const form = await moves.observe();
    await moves.act([
      {
        op: 'fill',
        target: moves.ref(form, 'textbox', 'Wikitext source editor'),
        value: { template: '== Summary ==\n{{body}}\n\n[[Category:{{category}}]]' },
      },
      { op: 'click', target: moves.ref(form, 'button', 'Save page') },
    ]);
    await moves.observe();
    const done = await moves.complete({
      outputs: ['url'],
      from: { url: { url: {} } },
      checkpoint: {
        target: heading,
        input: 'title',
        values: [
          { target: { locator: { by: 'text', text: '{{input.body}}' } }, input: 'body' },
          {
            target: { locator: { by: 'role', role: 'link', name: '{{input.category}}' } },
            input: 'category',
          },
        ],
      },
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    ['Coffee machine', 'Descale it every month.', 'Handbooks'],
    ['Badge access', 'Lost badges are blocked the same day.', 'Infrastructure'],
    ['Outage 14 May', 'The database ran out of disk.', 'Incidents'],
  ].map(([title, body, category]) => ({
    inputs: { title: title!, body: body!, category: category! },
    check: async (bed: MediaWikiApp, result: CaseResult) =>
      result.outcome === 'found' &&
      (await bed.state.page(title!))?.text === `== Summary ==\n${body}\n\n[[Category:${category}]]`,
  })),
};

describe('MediaWiki edited as a person types', () => {
  for (const operation of [appendLine, templatePage]) {
    it(
      `${operation.name}: discovered, compiled and replayed on new inputs, each checked in the wiki`,
      async () => {
        const { record, log, capability } = await discoverRegisterReplay(app, browser, operation);
        console.log(formatRecord(record));
        console.log(JSON.stringify(capability?.steps));
        expect(record.failures, JSON.stringify(log, null, 1).slice(0, 3000)).toEqual([]);
        expect(record.correct).toBe(operation.cases.length);
      },
      OPERATION_TIMEOUT_MS,
    );
  }
});
