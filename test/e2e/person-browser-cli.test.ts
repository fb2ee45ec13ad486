import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackofficeServer, startBackoffice } from '../../src/fixtures/backoffice/index.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../src/rungs/ui/browser.js';
import { tempHome } from '../replay/helpers.js';
import { type Listener, startListener } from '../security/listener.js';
import { freePort } from '../support/free-port.js';
import { tempDir } from '../support/temp.js';
import { LOOK_UP_MEMBER, lift } from './cli-helpers.js';

/**
 * Where a sign-in cannot be typed (single sign-on, a second factor), a session uses the one a
 * person already has: a browser they started and signed in to (`--browser-url`), or their
 * saved storage state (`--storage-state`). The policy and the request guard apply there as in
 * Lift's own browser, the person's tabs are left as they were, and the person's session
 * cookie never shows in anything Lift prints or writes outside its profile.
 */
const PASSWORD = 'backoffice-demo';
let fixture: BackofficeServer;
let listener: Listener;
let personSite: { origin: string; requests: string[]; server: Server };
let person: { process: ChildProcess; port: number; dataDir: ReturnType<typeof tempDir> };
let sessionCookie: string;
let savedState: string;
const home = tempHome();
let env: Record<string, string>;

async function startPersonSite() {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end("<title>Notes</title><h1>The person's notes</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

/** A person's own Chromium with a debugging port, as they would start it. */
async function startPersonBrowser(port: number, dataDir: string, url?: string) {
  const child = spawn(
    CHROMIUM_PATH,
    [
      ...CHROMIUM_ARGS.filter((arg) => arg !== '--disable-site-isolation-trials'),
      '--headless',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${dataDir}`,
      ...(url ? [url] : []),
    ],
    // Its own process group, so that stopping it stops its renderers and helpers too: they
    // outlive a killed parent for a moment and keep writing into the profile folder.
    { stdio: 'ignore', detached: true },
  );
  for (let waited = 0; waited < 20_000; waited += 100) {
    const answer = await fetch(`http://127.0.0.1:${port}/json/version`).catch(() => undefined);
    if (answer?.ok) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  killGroup(child);
  throw new Error('The person’s Chromium did not open its debugging port.');
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group has already gone.
  }
}

async function stopBrowser(child: ChildProcess): Promise<void> {
  const exited = child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
  killGroup(child);
  await exited;
}

/** The person's tabs, as the browser lists them (not through Lift). */
async function tabsOf(port: number): Promise<string[]> {
  const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    type: string;
    url: string;
  }>;
  return list
    .filter((target) => target.type === 'page')
    .map((target) => target.url)
    .sort();
}

/** Every file under a folder except the profiles (where a saved sign-in is kept on purpose). */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => !name.startsWith('profiles'))
    .map((name) => join(folder, name))
    .filter((file) => statSync(file).isFile() && !file.endsWith('.sock'));
}

/**
 * Every such file and what it holds. The session's process may still be closing its database
 * when `stop` has answered, and SQLite then removes its -wal and -shm files: a file gone
 * mid-scan starts the scan over, so what the log held is read in the database it went into.
 */
async function contentsUnder(folder: string): Promise<Array<[string, string]>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return filesUnder(folder).map((file) => [file, readFileSync(file, 'latin1')]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function session(args: string[]) {
  return lift(['session', ...args], env, home.home, 120_000);
}

function startArgs(extra: string[]): string[] {
  return [
    'start',
    '--url',
    `${fixture.origin}/app?view=/app/members`,
    '--policy',
    join(home.home, 'policy.json'),
    '--task',
    'Verify a member ID and return the savings balance',
    '--input',
    'memberId=M-1001',
    '--output',
    'savingsBalance:number',
    '--json',
    ...extra,
  ];
}

beforeAll(async () => {
  listener = await startListener();
  personSite = await startPersonSite();
  fixture = await startBackoffice({ password: PASSWORD, redirectTo: `${listener.origin}/collect` });
  const port = await freePort();
  const dataDir = tempDir('lift-person-');
  person = {
    process: await startPersonBrowser(port, dataDir.path, `${personSite.origin}/notes`),
    port,
    dataDir,
  };
  // The person signs in to the back office in a tab of their own, and leaves it open.
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const context = browser.contexts()[0]!;
  const page = await context.newPage();
  await page.goto(`${fixture.url}/login`);
  await page.getByLabel('User').fill(fixture.user);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button').click();
  await page.waitForURL(/\/app/);
  sessionCookie = (await context.cookies()).find((cookie) => cookie.name === 'bo_session')!.value;
  savedState = join(home.home, 'my-sign-in.json');
  await context.storageState({ path: savedState });
  await browser.close();
  writeFileSync(
    join(home.home, 'policy.json'),
    JSON.stringify({ origins: [fixture.origin], clickNames: ['Members', 'Look up'] }),
  );
  env = { LIFT_HOME: join(home.home, 'lift') };
}, 60_000);

afterAll(async () => {
  if (person) await stopBrowser(person.process);
  person?.dataDir.remove();
  await fixture?.close();
  await listener?.close();
  await new Promise((resolve) => personSite?.server.close(resolve));
  home.cleanup();
});

describe('lift session in a browser the person started (--browser-url)', () => {
  it('works signed in as the person, under the policy and the guard, and leaves their tabs alone', {
    timeout: 180_000,
  }, async () => {
    expect(sessionCookie.length).toBeGreaterThan(8);
    const tabsBefore = await tabsOf(person.port);
    expect(tabsBefore).toContain(`${personSite.origin}/notes`);
    const personRequestsBefore = personSite.requests.length;
    const started = await session(startArgs(['--browser-url', `http://127.0.0.1:${person.port}`]));
    expect(started.code, started.stderr).toBe(0);
    const { id } = JSON.parse(started.stdout) as { id: string };
    const outputs = [started.stdout, started.stderr];
    try {
      // Signed in with the person's cookie: the members workspace, not the sign-in page.
      const observed = await session(['observe', id]);
      outputs.push(observed.stdout, observed.stderr);
      expect(observed.code, observed.stderr).toBe(0);
      expect(observed.stdout).toContain('Member ID');
      expect(observed.stdout).not.toMatch(/textbox "Password"/);
      // Lift's page is a window of the person's browser, beside their tabs.
      expect((await tabsOf(person.port)).length).toBe(tabsBefore.length + 1);
      // The guard holds there as in Lift's browser: a redirect to another origin goes nowhere.
      fixture.setScenario('redirect_other_origin');
      const acted = await session(['act', id, LOOK_UP_MEMBER, '--json']);
      outputs.push(acted.stdout, acted.stderr);
      const reply = JSON.parse(acted.stdout) as { results: Array<{ status: string; code?: string }> };
      expect(reply.results[1]).toMatchObject({ status: 'executed', code: 'POLICY_BLOCKED' });
      expect(listener.requests).toEqual([]);
    } finally {
      fixture.setScenario('normal');
      const stopped = await session(['stop', id]);
      outputs.push(stopped.stdout, stopped.stderr);
    }
    // The person's browser runs on with the same tabs, none of them reloaded by Lift.
    expect(person.process.exitCode).toBeNull();
    expect(await tabsOf(person.port)).toEqual(tabsBefore);
    expect(personSite.requests.length).toBe(personRequestsBefore);
    // Their session cookie is nowhere in what Lift printed or wrote.
    for (const output of outputs) expect(output).not.toContain(sessionCookie);
    for (const [file, text] of await contentsUnder(env.LIFT_HOME!))
      expect(text, file).not.toContain(sessionCookie);
  });

  it('finds the browser again after it restarts; a ws:// address of the old run says nothing answers', {
    timeout: 120_000,
  }, async () => {
    const { webSocketDebuggerUrl } = (await (
      await fetch(`http://127.0.0.1:${person.port}/json/version`)
    ).json()) as { webSocketDebuggerUrl: string };
    await stopBrowser(person.process);
    person.process = await startPersonBrowser(person.port, person.dataDir.path);
    const stale = await session(startArgs(['--cdp-endpoint', webSocketDebuggerUrl]));
    expect(stale.code).not.toBe(0);
    expect(stale.stderr).toMatch(/No browser answered at ws:\/\//);
    const again = await session(startArgs(['--browser-url', `http://127.0.0.1:${person.port}`]));
    expect(again.code, again.stderr).toBe(0);
    const { id } = JSON.parse(again.stdout) as { id: string };
    const status = await session(['status', id, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ ok: true, outcome: 'running' });
    await session(['stop', id]);
    expect(person.process.exitCode).toBeNull();
  });

  it('refuses an address that is no browser, and two browsers at once, before starting anything', async () => {
    const nothing = await session(startArgs(['--browser-url', `http://127.0.0.1:${await freePort()}`]));
    expect(nothing.code).not.toBe(0);
    expect(nothing.stderr).toMatch(/No browser answered at http:\/\/127\.0\.0\.1:\d+/);
    expect(nothing.stderr).toMatch(/--remote-debugging-port/);
    // The two below are usage mistakes: asked with --json, they are JSON on standard output.
    const wsAsUrl = await session(startArgs(['--browser-url', 'ws://127.0.0.1:9222/devtools/browser/x']));
    expect(wsAsUrl.code).toBe(2);
    expect(JSON.parse(wsAsUrl.stdout).error.message).toMatch(/--cdp-endpoint/);
    const both = await session(
      startArgs(['--browser-url', 'http://127.0.0.1:9222', '--storage-state', savedState]),
    );
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stdout).error.message).toMatch(/Give one/);
  });
});

describe("lift session with a person's saved sign-in (--storage-state)", () => {
  it("signs Lift's own browser in, and keeps the sign-in in Lift's profile for later sessions", {
    timeout: 180_000,
  }, async () => {
    const isolated = { LIFT_HOME: join(home.home, 'lift-state') };
    const run = (args: string[]) => lift(['session', ...args], isolated, home.home, 120_000);
    const outputs: string[] = [];
    for (const extra of [['--storage-state', savedState], []]) {
      const started = await run(startArgs(extra));
      expect(started.code, started.stderr).toBe(0);
      const { id } = JSON.parse(started.stdout) as { id: string };
      const observed = await run(['observe', id]);
      await run(['stop', id]);
      outputs.push(started.stdout, started.stderr, observed.stdout, observed.stderr);
      expect(observed.stdout).toContain('Member ID');
      expect(observed.stdout).not.toMatch(/textbox "Password"/);
    }
    for (const output of outputs) expect(output).not.toContain(sessionCookie);
    for (const [file, text] of await contentsUnder(isolated.LIFT_HOME))
      expect(text, file).not.toContain(sessionCookie);
  });

  it('refuses a file that is no storage state without repeating any of it', async () => {
    const canary = 'canary-9f3b1d77e2';
    const notJson = join(home.home, 'not-json.json');
    writeFileSync(notJson, `{"cookies": [{"value": "${canary}"`);
    const wrongShape = join(home.home, 'wrong-shape.json');
    writeFileSync(wrongShape, JSON.stringify({ cookies: [{ name: 'sid', value: canary }] }));
    for (const [file, why] of [
      [notJson, /is not JSON/],
      [wrongShape, /not a saved storage state \(wrong or missing: cookies\.0\.domain/],
    ] as const) {
      const answer = await session(startArgs(['--storage-state', file]));
      expect(answer.code).not.toBe(0);
      // Under --json the refusal is the JSON answer on stdout, like every other error.
      expect(answer.stderr + answer.stdout).toMatch(why);
      expect(answer.stderr + answer.stdout).not.toContain(canary);
    }
  });
});
