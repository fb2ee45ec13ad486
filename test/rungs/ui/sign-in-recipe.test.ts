import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ToolEvent } from '../../../src/contract/context.js';
import { isLiftError } from '../../../src/contract/errors.js';
import { launchBrowser } from '../../../src/rungs/ui/browser.js';
import { PageHarness } from '../../../src/rungs/ui/harness.js';
import { parsePolicy } from '../../../src/rungs/ui/policy.js';
import { parseSignInRecipe, passwordFormSignIn, type SignInRecipe } from '../../../src/rungs/ui/sign-in.js';

const CANARY = 'canary-recipe-pw-51xQ';

// A login form as real apps write them: a server and a database beside user and password,
// labels in the row before each box, reached from a public home page by a "Log in" link.
const LOGIN = `<h1>Sign in</h1><form method="post" action="/login"><table>
<tr><td>Server</td><td><input name="server" value="localhost"></td></tr>
<tr><td>Username</td><td><input name="user"></td></tr>
<tr><td>Password</td><td><input type="password" name="pass"></td></tr>
<tr><td>Database</td><td><input name="db"></td></tr></table>
<p><button name="go">Log in</button> <button type="button">Forgot?</button></p></form>`;
// An administrator's "Add user" form: a user name and a password field, and no sign-in.
const ADD_USER = `<h1>Add user</h1><form method="post" action="/users"><label>Login <input name="login"></label>
<label>Password <input type="password" name="pw"></label><button>Add</button></form>`;

let server: Server;
let origin: string;
let browser: Browser;
const posted: Array<Record<string, string>> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const cookie = request.headers.cookie ?? '';
    const html = (body: string) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<!doctype html><title>app</title>${body}`);
    };
    if (request.method === 'POST') {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        posted.push(form);
        const ok = form.user === 'admin' && form.pass === CANARY && form.db === 'shop';
        if (request.url === '/login' && ok) {
          response.writeHead(303, { location: '/dashboard', 'set-cookie': 'session=1; Path=/' });
          response.end();
        } else html(request.url === '/login' ? `<p>Wrong.</p>${LOGIN}` : '<p>Added.</p>');
      });
      return;
    }
    if (request.url === '/login') return html(LOGIN);
    if (!cookie.includes('session=1')) return html('<h1>Home</h1><a href="/login">Log in</a>');
    if (request.url === '/users/new') return html(ADD_USER);
    return html('<h1>Dashboard</h1><a href="/users/new">Add user</a> <a href="/logout">Log out</a>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const RECIPE: SignInRecipe = parseSignInRecipe({
  fields: [
    { target: { locator: { by: 'field', label: 'Username' } }, value: { literal: 'admin' } },
    { target: { locator: { by: 'field', label: 'Password' } }, value: { secret: 'app_password' } },
    { target: { locator: { by: 'field', label: 'Database' } }, value: { input: 'database' } },
  ],
  submit: { click: { locator: { by: 'role', role: 'button', name: 'Log in' } } },
  success: { visible: { locator: { by: 'role', role: 'link', name: 'Log out' } } },
  page: '/login',
  open: '/login',
});

async function harnessWith(context: BrowserContext, recipe: SignInRecipe, events: ToolEvent[] = []) {
  return PageHarness.open(await context.newPage(), {
    policy: parsePolicy({ origins: [origin] }),
    inputs: { database: 'shop' },
    signIn: recipe,
    secret: (name) => {
      if (name !== 'app_password') throw new Error(`unexpected secret ${name}`);
      return CANARY;
    },
    emit: (event) => events.push(event),
  });
}

it('signs in by the recipe: each named field gets its literal, secret or input, the button is clicked, success shows', async () => {
  const context = await browser.newContext();
  try {
    const events: ToolEvent[] = [];
    const harness = await harnessWith(context, RECIPE, events);
    posted.length = 0;
    // The start page asks nobody to sign in: the recipe's `open` page is where the form is.
    expect(await harness.signInAtOpen(origin)).toBe(true);
    expect(posted).toEqual([{ server: 'localhost', user: 'admin', pass: CANARY, db: 'shop', go: '' }]);
    expect(harness.page.url()).toBe(`${origin}/dashboard`);
    expect(await harness.state()).toBe('ready');
    expect(events).toContainEqual({ type: 'ui-sign-in-end', ok: true });
    const { observation } = await harness.observe(1);
    expect(JSON.stringify(observation)).not.toContain(CANARY);
  } finally {
    await context.close();
  }
});

it('is detected by the recipe’s page and fields: an "Add user" form with a password field is no sign-in', async () => {
  const signedIn = async () => {
    const context = await browser.newContext();
    await context.addCookies([{ name: 'session', value: '1', url: origin }]);
    return context;
  };
  const contexts = [await signedIn(), await signedIn()];
  try {
    const harness = await harnessWith(contexts[0]!, RECIPE);
    await harness.goto(`${origin}/users/new`);
    expect(await harness.state()).toBe('ready');
    await harness.goto(`${origin}/login`);
    expect(await harness.state()).toBe('auth_required');
    // The short form names no page: a lone password field anywhere is taken for its sign-in.
    const short = await harnessWith(contexts[1]!, passwordFormSignIn('admin', { secret: 'app_password' }));
    await short.goto(`${origin}/users/new`);
    expect(await short.state()).toBe('auth_required');
  } finally {
    await Promise.all(contexts.map((context) => context.close()));
  }
});

it('fails with AUTH_REQUIRED naming the field a recipe names that the form does not have', async () => {
  const context = await browser.newContext();
  try {
    const broken = parseSignInRecipe({
      ...RECIPE,
      fields: [
        { target: { locator: { by: 'field', label: 'Username' } }, value: { literal: 'admin' } },
        { target: { locator: { by: 'field', label: 'Tenant' } }, value: { literal: 'acme' } },
      ],
    });
    const harness = await harnessWith(context, broken);
    await harness.goto(`${origin}/login`);
    const error = await harness.signIn().catch((caught: unknown) => caught);
    expect(isLiftError(error) && error.code).toBe('AUTH_REQUIRED');
    expect((error as Error).message).toContain('"Tenant"');
    expect((error as Error).message).toContain('matches nothing');
  } finally {
    await context.close();
  }
});

it('a recipe file that is not one says what a correct recipe looks like', () => {
  const error = (() => {
    try {
      parseSignInRecipe({ fields: [{ label: 'Username', value: 'admin' }] });
    } catch (caught) {
      return caught;
    }
  })();
  expect(isLiftError(error) && error.code).toBe('BAD_INPUT');
  expect((error as { hint?: string }).hint).toContain('"submit"');
});
