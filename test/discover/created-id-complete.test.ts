import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutputSource } from '../../src/capability/capability.js';
import { CapabilityStore } from '../../src/capability/store.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { ScriptedExplorer } from '../../src/discover/explorers/scripted.js';
import { runDiscovery } from '../../src/discover/run.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { passwordFormSignIn } from '../../src/rungs/ui/sign-in.js';
import { openStore, type Store } from '../../src/store/store.js';
import { launchChromium, startBackoffice, tempHome } from '../replay/helpers.js';

// Discovery of a create whose new id is only in the page's flash message and in its link to
// the record: complete reads the named source on the live page before it compiles.
const PASSWORD = 'canary-secret-0d1d';
let fixture: Awaited<ReturnType<typeof startBackoffice>>;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let store: Store;
let capabilities: CapabilityStore;
const home = tempHome();
const workspace = ['Workspace'];

beforeAll(async () => {
  fixture = await startBackoffice({ password: PASSWORD });
  browser = await launchChromium();
  store = openStore(home.home, { LIFT_SECRET_BACKOFFICE_PASSWORD: PASSWORD });
  capabilities = new CapabilityStore(store.capabilities);
});
afterAll(async () => {
  await browser?.close();
  await fixture?.close();
  await store?.close();
  home.cleanup();
});

async function discoverCreate(from: OutputSource) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const explorer = new ScriptedExplorer({
    explorer: 'scripted',
    calls: [
      { tool: 'observe', args: {} },
      {
        tool: 'act',
        args: {
          actions: [
            {
              op: 'fill',
              target: { frame: workspace, locator: { by: 'label', label: 'Subject' } },
              value: { input: 'subject' },
            },
            {
              op: 'click',
              target: { frame: workspace, locator: { by: 'role', role: 'button', name: 'Create request' } },
            },
          ],
        },
      },
      {
        tool: 'complete',
        args: {
          outputs: ['requestId'],
          checkpoint: {
            target: {
              frame: workspace,
              locator: { by: 'cell', row: '{{input.subject}}', column: 'Subject' },
            },
            input: 'subject',
          },
          from: { requestId: from },
        },
      },
    ],
  });
  try {
    const result = await runDiscovery({
      store,
      capabilities,
      page,
      policy: parsePolicy({
        version: 1,
        origins: [fixture.origin],
        paths: ['/app', '/app/**', '/login'],
        clickNames: ['Create request', 'Sign in'],
        budgets: { steps: 20, seconds: 60, rejected: 3 },
      }),
      task: {
        name: 'service_request_create',
        intent: 'Make a service request and return its id',
        inputs: [{ name: 'subject', type: 'string' }],
        outputs: [{ name: 'requestId', type: 'string' }],
        bound: { subject: `Toner ${Math.random().toString(36).slice(2, 8)}` },
        startUrl: `${fixture.origin}/app?view=/app/requests/new`,
        outcomes: ['found'],
      },
      explorer,
      signIn: { recipe: passwordFormSignIn('operator', { literal: PASSWORD }) },
      liftVersion: LIFT_VERSION,
    });
    return { result, replies: explorer.replies };
  } finally {
    await context.close();
  }
}

describe('complete with an output from the resulting page', () => {
  it('compiles an id read from the flash message, with no read step', async () => {
    const from = { message: { pattern: 'Request (R-\\d+) created' } };
    const { result } = await discoverCreate(from);
    expect(result.status.outcome).toBe('completed');
    const stored = JSON.parse(readFileSync((await capabilities.resolve(result.revision!))!.file, 'utf8'));
    expect(stored.outputs).toEqual([{ name: 'requestId', type: 'string', from }]);
    expect(stored.steps.some((step: { op: string }) => step.op === 'read')).toBe(false);
  });

  it('refuses a link the resulting page does not have, before anything is stored', async () => {
    const { result, replies } = await discoverCreate({ link: { name: 'Edit request', param: 'request' } });
    expect(result.revision).toBeUndefined();
    const complete = replies.find((reply) => reply.tool === 'complete')?.reply as {
      ok: boolean;
      error: string;
    };
    expect(complete).toMatchObject({ ok: false, error: 'CHECK_FAILED' });
  });
});
