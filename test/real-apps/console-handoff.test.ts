import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityStore } from '../../src/capability/store.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { runDiscovery } from '../../src/discover/run.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { profileFor } from '../../src/rungs/ui/page-pool.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { passwordFormSignIn } from '../../src/rungs/ui/sign-in.js';
import { openStore } from '../../src/store/store.js';
import { collect } from '../console/support.js';
import { startApp, type WordPressApp } from './bed.js';
import { LiveExplorer } from './explore.js';
import { signIn } from './sign-in.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'src', 'cli', 'main.ts');
// Absolute: the command runs in a temporary folder, where a bare `tsx` does not resolve.
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const TOKEN = 'console-real-token-A75uc4Fzs8Ha9U3mXMwE-2QIC81BU9H';
const TOOL = 'wordpress_user_email';
let app: WordPressApp;
let browser: Browser;
let dir: string;
let env: Record<string, string>;
const children: ChildProcess[] = [];

/** `lift` from the source (the bed runs without a build), in this test's home. */
function lift(args: string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return { child, done: collect(child) };
}

/** Discovers "look up a user's email by login" on wp-admin's Users list with a scripted explorer. */
async function discoverUserEmail(): Promise<string> {
  const store = openStore(env.LIFT_HOME!, { LIFT_SECRET_WORDPRESS_PASSWORD: app.credentials.password });
  const context = await browser.newContext();
  try {
    const explorer = new LiveExplorer(async (moves) => {
      await moves.observe();
      const row = { by: 'cell', table: 'Users list', key: 'Username', row: '{{input.login}}' };
      await moves.act([{ op: 'read', target: { locator: { ...row, column: 'Email' } }, as: 'email' }]);
      await moves.complete({
        outputs: ['email'],
        checkpoint: {
          target: { locator: { ...row, column: 'Username' } },
          input: 'login',
          match: 'contains',
        },
      });
    });
    const result = await runDiscovery({
      store,
      capabilities: new CapabilityStore(store.capabilities),
      page: await context.newPage(),
      policy: parsePolicy({ version: 1, origins: [app.origin] }),
      task: {
        name: TOOL,
        intent: "Look up a WordPress user's email address by login",
        inputs: [{ name: 'login', type: 'string' }],
        outputs: [{ name: 'email', type: 'string' }],
        bound: { login: 'jdoe' },
        startUrl: `${app.origin}/wp-admin/users.php`,
      },
      explorer,
      signIn: {
        recipe: passwordFormSignIn(app.credentials.user, { secret: 'wordpress_password' }),
        secret: (name) => store.secrets.get(name),
      },
      liftVersion: LIFT_VERSION,
    });
    if (!result.capability) throw new Error(`discovery ${result.status.outcome}: ${result.status.reason}`);
    const file = join(dir, `${TOOL}.json`);
    writeFileSync(file, JSON.stringify(result.capability));
    return file;
  } finally {
    await context.close();
    store.close();
  }
}

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('wordpress'), launchBrowser()]);
  dir = mkdtempSync(join(tmpdir(), 'lift-real-console-'));
  env = { LIFT_HOME: join(dir, 'home'), LIFT_SECRET_SERVE_TOKEN: TOKEN };
  const file = await discoverUserEmail();
  // Registered with no sign-in of its own: when the session is gone, only a person can sign in.
  const added = await lift(['capabilities', 'add', file, '--effect', 'read']).done;
  expect(added.code, added.stderr).toBe(0);
  // A signed-in profile, as an earlier sign-in leaves it; the reset then signs every browser out.
  const setup = await (await browser.newContext()).newPage();
  await signIn(setup, app);
  const folder = join(env.LIFT_HOME!, 'profiles', profileFor(app.origin));
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  writeFileSync(join(folder, 'storage-state.json'), JSON.stringify(await setup.context().storageState()));
  await setup.context().close();
  await app.reset();
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await browser?.close();
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function consoleUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`lift console did not start: ${text}`)), 90_000);
    const hear = (chunk: Buffer) => {
      text += chunk.toString();
      const url = /(http:\/\/\S+\/console\/)/.exec(text)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout?.on('data', hear);
    child.stderr?.on('data', hear);
  });
}

/** Successful sign-ins in the PHP server's log (`[302]: POST /wp-login.php`). */
function signInsLogged(): number {
  const log = readFileSync(join(app.dir, 'wordpress-php.log'), 'utf8');
  return [...log.matchAll(/\[302\]: POST \/wp-login\.php/g)].length;
}

async function centreOf(page: Page, label: string): Promise<{ x: number; y: number }> {
  const box = (await page.getByLabel(label, { exact: true }).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

describe('a person signs a WordPress replay of another process in again from the console', () => {
  it('lift call --wait meets wp-login.php after the sessions ended; the person signs in through the screencast and the call answers', async () => {
    const consoleProcess = lift(['console', '--port', '0']);
    const url = await consoleUrl(consoleProcess.child);
    const waiting = lift(['call', TOOL, '--input', JSON.stringify({ login: 'bob' }), '--wait']);

    const person = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await person.goto(url);
    await person.getByLabel('Serve token').fill(TOKEN);
    await person.getByRole('button', { name: 'Sign in' }).click();
    await person.getByRole('link', { name: 'Handoffs' }).click();
    await person.getByRole('link', { name: 'Take over' }).waitFor({ timeout: 180_000 });
    await person.getByRole('link', { name: 'Take over' }).click();
    const screen = person.locator('#screen');
    await person.waitForFunction(
      () => Number(document.getElementById('screen')?.dataset.frames ?? 0) > 0,
      null,
      {
        timeout: 60_000,
      },
    );

    // The sign-in page as the replay's page shows it, drawn here at the screencast's size.
    const size = await screen.evaluate((image: HTMLImageElement) => ({
      width: image.naturalWidth,
      height: image.naturalHeight,
    }));
    const reference = await (await browser.newContext({ viewport: size })).newPage();
    await reference.goto(`${app.origin}/wp-admin/users.php`);
    const fields = {
      user: await centreOf(reference, 'Username or Email Address'),
      password: await centreOf(reference, 'Password'),
    };
    await reference.context().close();
    const box = (await screen.boundingBox())!;
    const onScreen = (point: { x: number; y: number }) => ({
      x: box.x + (point.x / size.width) * box.width,
      y: box.y + (point.y / size.height) * box.height,
    });

    const before = signInsLogged();
    const user = onScreen(fields.user);
    await person.mouse.click(user.x, user.y);
    await person.keyboard.type(app.credentials.user);
    const password = onScreen(fields.password);
    await person.mouse.click(password.x, password.y);
    await person.getByLabel(/Type into the page/).fill(app.credentials.password);
    await person.getByRole('button', { name: 'Send text' }).click();
    await person.getByRole('button', { name: 'Press Enter in the page' }).click();
    for (let attempt = 0; attempt < 240 && signInsLogged() === before; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(signInsLogged()).toBeGreaterThan(before);
    await person.getByRole('button', { name: 'Done: resume the run' }).click();
    await expect(person.locator('#flash').textContent()).resolves.toContain('back with the run');

    const answered = await waiting.done;
    expect(answered.code, `${answered.stdout}\n${answered.stderr}`).toBe(0);
    const envelope = JSON.parse(answered.stdout);
    expect(envelope.fields.email).toBe((await app.state.userByLogin('bob'))?.email);
    expect(answered.stdout + answered.stderr).not.toContain(app.credentials.password);
    await person.context().close();
    consoleProcess.child.kill('SIGTERM');
  }, 600_000);
});
