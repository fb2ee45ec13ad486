import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performAction } from '../../../src/rungs/ui/act.js';
import { type PageOnServer, pageOnServer } from './page-on-server.js';

// An app's shell with its Workspace frame, answered slowly (a sign-in's redirect to it on a
// loaded machine): an action in that frame, sent while the shell is still on its way, waits for
// it instead of answering "no frame" after its first second.
const SIGNED_IN = `<!doctype html><title>Signed in</title><p>Welcome</p>`;
const SHELL = `<!doctype html><title>App</title><iframe title="Workspace" src="/home"></iframe>`;
const HOME = `<!doctype html><title>Home</title><h1>Home</h1>`;
const MEMBERS = `<!doctype html><title>Members</title><h1>Members</h1>`;

let served: PageOnServer;

beforeAll(async () => {
  served = await pageOnServer((request, response) => {
    const answer = (html: string) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    };
    if (request.url === '/app') setTimeout(() => answer(SHELL), 1_800);
    else if (request.url === '/shell') answer(SHELL);
    else if (request.url === '/members') answer(MEMBERS);
    else if (request.url === '/home') answer(HOME);
    else answer(SIGNED_IN);
  }, 'lift-frame-coming-');
});
afterAll(() => served?.close());

/** Navigates the Workspace frame to the members page, and checks it is there. */
async function expectNavigatedInWorkspace(): Promise<void> {
  const { harness, page, origin } = served;
  const environment = harness.actEnvironment(new Map(), {}, Date.now() + 15_000);
  const step = await performAction(
    environment,
    { op: 'navigate', url: `${origin}/members`, frame: ['Workspace'] },
    0,
  );
  expect(step.status, step.message).toBe('executed');
  expect(page.frame({ url: `${origin}/members` })).not.toBeNull();
}

describe('an action in a frame of a page still on its way', () => {
  it('waits for the page and acts in its frame', { timeout: 30_000 }, async () => {
    const { harness, page, origin } = served;
    await harness.goto(`${origin}/`);
    // The shell is asked for and not answered yet when the action comes.
    void page.evaluate(() => {
      location.href = '/app';
    });
    await page.waitForRequest(`${origin}/app`);
    await expectNavigatedInWorkspace();
  });

  it('answers a frame the page does not have soon, when nothing is on its way', async () => {
    const { harness, origin } = served;
    await harness.goto(`${origin}/`);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const started = Date.now();
    const environment = harness.actEnvironment(new Map(), {}, Date.now() + 15_000);
    const step = await performAction(
      environment,
      { op: 'navigate', url: `${origin}/members`, frame: ['Nowhere'] },
      0,
    );
    expect(step.status).toBe('rejected');
    expect(step.message).toContain('No frame');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('an action in a frame of a page whose renderer is busy', () => {
  // The CI's policy test answered "No frame Workspace" on a shell that had it: on a loaded
  // machine the renderer missed the look's one-second clock, and nothing was on its way.
  it('finds the frame once the renderer answers, instead of calling it missing', {
    timeout: 30_000,
  }, async () => {
    const { harness, page, origin } = served;
    await harness.goto(`${origin}/shell`);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await page.evaluate(() => {
      setTimeout(() => {
        const end = Date.now() + 3_000;
        while (Date.now() < end) {}
      }, 0);
    });
    await expectNavigatedInWorkspace();
  });
});
