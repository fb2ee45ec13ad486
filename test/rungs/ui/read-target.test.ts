import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performAction } from '../../../src/rungs/ui/act.js';
import type { PageHarness } from '../../../src/rungs/ui/harness.js';
import { resolveTarget, type Target } from '../../../src/rungs/ui/locator.js';
import { type PageOnServer, pageOnServer } from './page-on-server.js';

// Two records, shown as real admin pages show them: a users list filtered to one login (the
// email a link, with row actions beside the name), and a message preview whose sender is a link.
const USERS: Record<string, { name: string; email: string }> = {
  jdoe: { name: 'Jane Doe', email: 'jane.doe@example.org' },
  rroe: { name: 'Richard Roe', email: 'rick.roe@example.net' },
};

function usersPage(login: string): string {
  const user = USERS[login]!;
  return `<!doctype html><title>Users</title><main><h1>Users</h1><table><thead><tr><th>Username</th><th>Name</th><th>Email</th><th>Role</th></tr></thead>
  <tbody><tr><td><a href="/edit/${login}">${login}</a> <a href="/edit/${login}">Edit</a> | <a href="/delete/${login}">Delete</a></td><td>${user.name}</td><td><a href="mailto:${user.email}">${user.email}</a></td><td>Editor</td></tr></tbody></table></main>`;
}

function previewPage(login: string): string {
  const user = USERS[login]!;
  return `<!doctype html><title>Message</title><main><h1>Weekly report</h1><div role="region" aria-label="Message headers"><span>From</span> <a href="mailto:${user.email}">${user.name}</a> <span>To</span> <a href="mailto:ops@example.org">Operations</a></div><p>See attached.</p></main>`;
}

let origin: string;
let served: PageOnServer;
let page: Page;
let harness: PageHarness;

beforeAll(async () => {
  served = await pageOnServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const login = url.searchParams.get('login') ?? 'jdoe';
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(url.pathname === '/preview' ? previewPage(login) : usersPage(login));
  }, 'lift-read-target-');
  ({ origin, page, harness } = served);
});
afterAll(() => served?.close());

/** Reads the element with this role and name by its ref, as an explorer does; the target it stores. */
async function readByRef(url: string, role: string, name: string): Promise<Target> {
  await harness.goto(url);
  const { observation, index } = await harness.observe(1);
  const element = observation.elements.find((each) => each.role === role && each.name === name);
  expect(element, observation.text).toBeDefined();
  const reads: Record<string, string> = {};
  const step = await performAction(
    harness.actEnvironment(index.elements, reads),
    { op: 'read', target: { ref: element!.ref }, as: 'value' },
    0,
  );
  expect(step.status, step.message).toBe('executed');
  expect(reads.value).toContain(name);
  return step.resolved!.target!;
}

/** What the stored target reads on another record's page. */
async function readOn(url: string, target: Target): Promise<string> {
  await harness.goto(url);
  const locator = await resolveTarget(page, target);
  expect(await locator.count()).toBe(1);
  // biome-ignore lint/performance/useDomNodeTextContent: a read returns the text a person sees.
  return (await locator.innerText()).trim();
}

describe('a read by ref stores where the value is, not the value', () => {
  it('reads the email cell of the one row by its column, and on another record reads that record', async () => {
    const target = await readByRef(`${origin}/users?login=jdoe`, 'link', 'jane.doe@example.org');
    expect(JSON.stringify(target)).not.toContain('jane.doe');
    // The row is found by its key, the login (a task's input, which the compiler parameterises),
    // never by the row actions beside it.
    expect(target.locator).toMatchObject({ by: 'cell', row: 'jdoe', key: 'Username', column: 'Email' });
    const onOther = { ...target, locator: { ...target.locator, row: 'rroe' } } as Target;
    expect(await readOn(`${origin}/users?login=rroe`, onOther)).toBe('rick.roe@example.net');
  });

  it('reads the sender by the text before it, not by the sender name', async () => {
    const target = await readByRef(`${origin}/preview?login=jdoe`, 'link', 'Jane Doe');
    expect(JSON.stringify(target)).not.toContain('Jane');
    expect(await readOn(`${origin}/preview?login=rroe`, target)).toBe('Richard Roe');
  });
});

describe('a read of an element named by a bound input', () => {
  it('keeps the name: the capability binds it anew, so it finds the same place on another record', async () => {
    // The Sent folder's link named by the subject being looked for (Roundcube) is this link
    // named by the sender looked for: a position among the page's links, or the label before
    // it, would read whatever sits there on another day.
    const bound = await pageOnServer(
      (request, response) => {
        const url = new URL(request.url ?? '/', 'http://localhost');
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(previewPage(url.searchParams.get('login') ?? 'jdoe'));
      },
      'lift-read-bound-',
      { sender: 'Jane Doe' },
    );
    try {
      await bound.harness.goto(`${bound.origin}/preview`);
      const { observation, index } = await bound.harness.observe(1);
      const link = observation.elements.find((each) => each.role === 'link' && each.name.includes('sender'));
      expect(link, observation.text).toBeDefined();
      const reads: Record<string, string> = {};
      const step = await performAction(
        bound.harness.actEnvironment(index.elements, reads),
        { op: 'read', target: { ref: link!.ref }, as: 'value' },
        0,
      );
      expect(step.status, step.message).toBe('executed');
      expect(reads.value).toBe('Jane Doe');
      expect(step.resolved?.target?.locator).toMatchObject({ by: 'role', role: 'link', name: 'Jane Doe' });
    } finally {
      await bound.close();
    }
  });
});
