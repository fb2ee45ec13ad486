import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Capability, CapabilitySchema } from '../../src/capability/capability.js';
import { CapabilityStore } from '../../src/capability/store.js';
import { isLiftError } from '../../src/contract/errors.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { ScriptedExplorer } from '../../src/discover/explorers/scripted.js';
import { openDiscovery, runDiscovery } from '../../src/discover/run.js';
import type { ToolReply } from '../../src/discover/types.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { parseSignInRecipe, type SignInRecipe } from '../../src/rungs/ui/sign-in.js';
import { openStore, type Store } from '../../src/store/store.js';
import { type SignInApp, startSignInApp } from '../support/sign-in-app.js';
import { tempDir } from '../support/temp.js';

const CANARY = 'canary-midway-pw-K2s9';
const dir = tempDir('lift-sign-in-midway-');
let app: SignInApp;
let browser: Browser;
let store: Store;
let capabilities: CapabilityStore;

beforeAll(async () => {
  [app, browser] = await Promise.all([startSignInApp(CANARY), launchBrowser()]);
  store = openStore(dir.path, { LIFT_SECRET_DB_PASSWORD: CANARY });
  capabilities = new CapabilityStore(store.capabilities);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await store?.close();
  dir.remove();
});

const field = (label: string) => ({ locator: { by: 'field' as const, label } });
const RECIPE = parseSignInRecipe({
  fields: [
    { target: field('Username'), value: { literal: 'admin' } },
    { target: field('Password'), value: { secret: 'db_password' } },
  ],
  submit: { click: { locator: { by: 'role', role: 'button', name: 'Login' } } },
});
const link = (name: string) => ({ locator: { by: 'role', role: 'link', name } });
const owner = { locator: { by: 'cell', row: '{{input.id}}', column: 'Owner', key: 'Id' } };
const key = { locator: { by: 'cell', row: '{{input.id}}', column: 'Id', key: 'Id' } };

const TASK = {
  name: 'server_owner',
  intent: 'Read the owner of a server by its id',
  inputs: [{ name: 'id', type: 'string' as const }],
  outputs: [{ name: 'owner', type: 'string' as const }],
  bound: { id: '3' },
  outcomes: ['found' as const],
};

/** A discovery on the public home page: Log in, Servers, read the owner, complete. */
async function discoverFromPublicPage(recipe: SignInRecipe, loginLink = 'Log in') {
  const context = await browser.newContext();
  const explorer = new ScriptedExplorer({
    explorer: 'scripted',
    calls: [
      { tool: 'observe', args: {} },
      { tool: 'act', args: { actions: [{ op: 'click', target: link(loginLink) }] } },
      { tool: 'observe', args: {} },
      { tool: 'act', args: { actions: [{ op: 'click', target: link('Servers') }] } },
      { tool: 'act', args: { actions: [{ op: 'read', target: owner, as: 'owner' }] } },
      { tool: 'complete', args: { outputs: ['owner'], checkpoint: { target: key, input: 'id' } } },
    ],
  });
  try {
    const result = await runDiscovery({
      store,
      capabilities,
      page: await context.newPage(),
      policy: parsePolicy({ origins: [app.origin, app.origin.replace('127.0.0.1', 'localhost')] }),
      task: { ...TASK, startUrl: `${app.origin}/` },
      explorer,
      signIn: { recipe, secret: (name) => store.secrets.get(name) },
      liftVersion: LIFT_VERSION,
    });
    return { result, replies: explorer.replies };
  } finally {
    await context.close();
  }
}

function stored(revision: string | undefined): Promise<Capability> {
  return capabilities
    .resolve(revision!)
    .then((found) => CapabilitySchema.parse(JSON.parse(readFileSync(found!.file, 'utf8'))));
}

/** A replay in a browser that was never signed in to the application. */
async function replayFresh(capability: Capability, id: string, signIn?: SignInRecipe) {
  const context = await browser.newContext();
  try {
    return await replayCapability(
      capability,
      { id },
      {
        page: await context.newPage(),
        evidenceDir: dir.path,
        effectClass: 'read',
        ...(signIn ? { signIn, secret: (name: string) => store.secrets.get(name) } : {}),
      },
    );
  } finally {
    await context.close();
  }
}

describe('a session started on a public page', () => {
  let capability: Capability;

  it('signs in by its recipe when the explorer clicks "Log in", and goes on from the start page signed in', async () => {
    app.posted.length = 0;
    const { result, replies } = await discoverFromPublicPage(RECIPE);
    const login = replies[1]!.reply as ToolReply & { results: Array<Record<string, unknown>> };
    expect(login.ok).toBe(true);
    expect(login.signed_in).toBe(true);
    expect(login.results[0]).toMatchObject({ status: 'executed', effect: 'changed' });
    expect(login.results[0]!.message).toContain('the session signed in by its recipe');
    // Signed in midway, then again by complete's rehearsal on a fresh page, as a replay does.
    expect(app.posted.length).toBeGreaterThanOrEqual(1);
    for (const form of app.posted) expect(form).toMatchObject({ user: 'admin', pass: CANARY });
    // The explorer is back on the start page, signed in: it finds the Servers link there.
    expect((replies[2]!.reply as unknown as { observation: string }).observation).toContain('link "Servers"');
    expect(result.status.outcome).toBe('completed');
    capability = await stored(result.revision);
    // Where the form showed, for replays; the "Log in" click is not a step.
    expect(capability.preconditions.signInAt).toBe('/login?back=/');
    expect(capability.steps.map((step) => step.op)).toEqual(['click', 'read']);
    expect(JSON.stringify({ capability, replies })).not.toContain(CANARY);
  });

  it('replays in a browser never signed in: signs in where discovery met the form, then reads', async () => {
    const replayed = await replayFresh(capability, '12', RECIPE);
    expect(replayed.outputs).toEqual({ owner: 'platform@example.org' });
  });

  it('answers AUTH_REQUIRED before any step when the replay has no sign-in, not SURFACE_CHANGED', async () => {
    const error = await replayFresh(capability, '12').catch((caught: unknown) => caught);
    expect(isLiftError(error) && error.code).toBe('AUTH_REQUIRED');
    expect(isLiftError(error) && error.outcome).toBe('not_started');
  });

  it('says what of its recipe the form has not got when the recipe does not fit the form the app shows', async () => {
    const misfit = parseSignInRecipe({
      ...RECIPE,
      fields: [{ target: field('Login name'), value: { literal: 'x' } }],
    });
    const { replies } = await discoverFromPublicPage(misfit);
    const login = replies[1]!.reply as ToolReply & { results: Array<Record<string, unknown>> };
    expect(login.results[0]).toMatchObject({ code: 'AUTH_REQUIRED' });
    expect(login.results[0]!.message).toContain('field after "Login name" matches nothing');
    expect(login.results[0]!.message).toContain(
      'textbox "Username": {"locator":{"by":"field","label":"Username"}}',
    );
  });

  it('never types its secrets into a sign-in form another origin serves', async () => {
    app.posted.length = 0;
    const { replies } = await discoverFromPublicPage(RECIPE, 'Log in on the mirror');
    const login = replies[1]!.reply as ToolReply & { results: Array<Record<string, unknown>> };
    expect(login.signed_in).toBeUndefined();
    expect(login.results[0]).toMatchObject({ code: 'AUTH_REQUIRED' });
    expect(login.results[0]!.message).toContain(`not by the application's ${app.origin}`);
    expect(app.posted).toEqual([]);
  });
});

describe('a session started on the sign-in page', () => {
  it('does not start when its recipe does not fit the form, and names the field that found nothing', async () => {
    const context = await browser.newContext();
    try {
      const misfit = parseSignInRecipe({
        ...RECIPE,
        fields: [{ target: field('User'), value: { literal: 'x' } }],
      });
      const error = await openDiscovery({
        store,
        capabilities,
        page: await context.newPage(),
        policy: parsePolicy({ origins: [app.origin] }),
        task: { ...TASK, startUrl: `${app.origin}/servers` },
        signIn: { recipe: misfit, secret: (name) => store.secrets.get(name) },
        explorer: 'scripted',
        liftVersion: LIFT_VERSION,
      }).catch((caught: unknown) => caught);
      expect(isLiftError(error) && error.code).toBe('AUTH_REQUIRED');
      expect((error as Error).message).toContain('field after "User" matches nothing');
    } finally {
      await context.close();
    }
  });
});
