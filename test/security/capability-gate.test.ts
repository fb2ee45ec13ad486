import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revisionOf } from '../../src/capability/capability.js';
import { type BackofficeServer, loadMembers, startBackoffice } from '../../src/fixtures/backoffice/index.js';
import { capabilityDeps } from '../../src/replay/load.js';
import { capabilityTool } from '../../src/replay/tool.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { createLiftServer } from '../../src/serve/mcp-server.js';
import { startHarness } from '../agent/harness.js';
import { lift } from '../e2e/cli-helpers.js';
import {
  launchChromium,
  memberNoteCapability,
  memberNoteDefinition,
  memberStatusCapability,
  tempHome,
} from '../replay/helpers.js';

/**
 * Every way to run a capability goes through invoke, so a write is held at its gate and
 * nothing reaches the page until a person approves it: lift replay (registered or not),
 * lift call, MCP, the agent and run_chain.
 */
let fixture: BackofficeServer;
const home = tempHome();
let env: Record<string, string>;
let noteFile: string;
let statusFile: string;
const NOTE = 'CANARY-NOTE-4471';

beforeAll(async () => {
  fixture = await startBackoffice();
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${fixture.url}/login`);
    await page.getByLabel('User').fill(fixture.user);
    await page.getByLabel('Password').fill('backoffice-demo');
    await page.getByRole('button').click();
    await page.waitForURL(/\/app/);
    noteFile = join(home.home, 'member-note.json');
    writeFileSync(noteFile, JSON.stringify(await memberNoteCapability(page, fixture.origin)));
    statusFile = join(home.home, 'member-status.json');
    writeFileSync(statusFile, JSON.stringify(await memberStatusCapability(page, fixture.origin)));
  } finally {
    await browser.close();
  }
  env = { LIFT_HOME: join(home.home, 'lift'), LIFT_SECRET_BACKOFFICE_PASSWORD: 'backoffice-demo' };
});
afterAll(async () => {
  await fixture?.close();
  home.cleanup();
});

const statusOf = (id: string) => loadMembers().find((member) => member.id === id)!.status;
const notesOf = (id: string, text: string) =>
  fixture
    .members()
    .find((member) => member.id === id)!
    .notes.filter((note) => note.text === text);

async function json<T>(args: string[]): Promise<T> {
  const result = await lift(args, env, home.home, 120_000);
  return JSON.parse(result.stdout) as T;
}

interface Held {
  ok: boolean;
  tool: string;
  pending?: { approval_id: string; gate: string; confirmation_phrase?: string };
}

async function approve(held: Held): Promise<{ ok: boolean; fields?: Record<string, unknown> }> {
  const { approval_id: id, confirmation_phrase: phrase } = held.pending!;
  return json(['approve', id, ...(phrase ? ['--phrase', phrase] : []), '--json']);
}

describe('lift replay', () => {
  it('holds a capability file nobody registered as irreversible, and lift approve runs it once', {
    timeout: 240_000,
  }, async () => {
    const note = `${NOTE}-file`;
    fixture.clearRequests();
    const held = await json<Held>([
      'replay',
      noteFile,
      '--input',
      JSON.stringify({ memberId: 'M-1004', note }),
      '--user',
      'operator',
      '--secret',
      'backoffice_password',
      '--json',
    ]);
    expect(held).toMatchObject({
      ok: false,
      error: { code: 'APPROVAL_PENDING' },
      pending: { gate: 'signature' },
    });
    expect(held.tool).toMatch(/^replay_[0-9a-f]{12}$/);
    expect(fixture.requests()).toEqual([]);
    expect(await approve(held)).toMatchObject({ ok: true, fields: { outcome: 'found' } });
    expect(notesOf('M-1004', note)).toHaveLength(1);
  });

  it('holds a capability registered as irreversible for a signature, as lift call does; nothing touches the page', {
    timeout: 240_000,
  }, async () => {
    const added = await lift(
      [
        'capabilities',
        'add',
        noteFile,
        '--effect',
        'irreversible',
        '--user',
        'operator',
        '--secret',
        'backoffice_password',
      ],
      env,
      home.home,
    );
    expect(added.code, added.stderr).toBe(0);
    fixture.clearRequests();
    const input = JSON.stringify({ memberId: 'M-1003', note: NOTE });
    const replayed = await json<Held>(['replay', 'member_note_add', '--input', input, '--json']);
    const called = await json<Held>(['call', 'member_note_add', '--input', input]);
    for (const held of [replayed, called]) {
      expect(held).toMatchObject({
        ok: false,
        tool: 'member_note_add',
        error: { code: 'APPROVAL_PENDING' },
        pending: { gate: 'signature' },
      });
    }
    expect(fixture.requests()).toEqual([]);
    const listed = await json<Array<{ id: string; tool: string }>>(['approvals', '--json']);
    expect(listed.map((approval) => approval.id)).toContain(replayed.pending!.approval_id);

    const done = await approve(replayed);
    expect(done).toMatchObject({ ok: true, fields: { outcome: 'found', status: statusOf('M-1003') } });
    expect(notesOf('M-1003', NOTE)).toHaveLength(1);
  });

  it('runs a capability file at once when none of its steps can change state', {
    timeout: 240_000,
  }, async () => {
    const answer = await json<{ ok: boolean; outputs?: Record<string, unknown> }>([
      'replay',
      statusFile,
      '--input',
      '{"memberId":"M-1001"}',
      '--user',
      'operator',
      '--secret',
      'backoffice_password',
      '--json',
    ]);
    expect(answer).toMatchObject({ ok: true, outputs: { status: statusOf('M-1001') } });
  });
});

describe('MCP, the agent and run_chain', () => {
  /** The note capability registered as irreversible; its fingerprint is made up: nothing may replay it. */
  async function register(runtime: Runtime): Promise<string> {
    const deps = capabilityDeps(runtime);
    const capability = memberNoteDefinition(fixture.origin, '0'.repeat(64));
    await deps.capabilities.save(capability);
    const registration = await deps.registrations.register({
      name: capability.name,
      revision: revisionOf(capability),
      effectClass: 'irreversible',
    });
    runtime.registry.add(capabilityTool(capability, registration, deps));
    return capability.name;
  }
  const args = { memberId: 'M-1005', note: NOTE };

  it('an MCP client gets the held approval, not a replay', async () => {
    const harness = await startHarness({ tools: [] });
    try {
      const name = await register(harness.runtime);
      fixture.clearRequests();
      const server = createLiftServer(harness.runtime);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.server.connect(serverSide);
      const client = new Client({ name: 'gate-test', version: '1.0.0' });
      await client.connect(clientSide);
      const result = await client.callTool({ name, arguments: args });
      await client.close();
      server.dispose();
      expect(result.structuredContent).toMatchObject({
        ok: false,
        error: { code: 'APPROVAL_PENDING' },
        pending: { gate: 'signature' },
      });
      expect(
        (await harness.runtime.store.approvals.list(['pending'])).map((approval) => approval.tool),
      ).toEqual([name]);
      expect(fixture.requests()).toEqual([]);
    } finally {
      await harness.close();
    }
  });

  it('the agent leaves the call pending for a person', async () => {
    const harness = await startHarness({ tools: [] });
    try {
      const name = await register(harness.runtime);
      fixture.clearRequests();
      harness.server.enqueue({ kind: 'answer', toolCalls: [{ name, args }] });
      const result = await harness.run('add the note to member M-1005', { shortlist: false });
      expect(result.outcome).toBe('pending');
      expect(
        (await harness.runtime.store.approvals.list(['pending'])).map((approval) => approval.tool),
      ).toEqual([name]);
      expect(fixture.requests()).toEqual([]);
    } finally {
      await harness.close();
    }
  });

  it('run_chain holds the step at its gate', async () => {
    const harness = await startHarness({ tools: [] });
    try {
      const name = await register(harness.runtime);
      fixture.clearRequests();
      harness.server.enqueue(
        {
          kind: 'answer',
          toolCalls: [{ name: 'run_chain', args: { steps: [{ id: 'note', tool: name, args }] } }],
        },
        { kind: 'answer', text: 'The note waits for approval.' },
      );
      await harness.run('add the note to member M-1005', { shortlist: false });
      expect(
        (await harness.runtime.store.approvals.list(['pending'])).map((approval) => approval.tool),
      ).toEqual([name]);
      expect(fixture.requests()).toEqual([]);
    } finally {
      await harness.close();
    }
  });
});
