import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backofficeOperations } from '../../src/apps/backoffice/operations.js';
import {
  TICKET_CLOSE_CAPABILITY,
  ticketClosePolicy,
  ticketCloseScript,
  ticketCloseTask,
} from '../../src/apps/backoffice/ticket-close-script.js';
import { ticketCloseWithNoteTool } from '../../src/apps/backoffice/ticket-close-with-note.js';
import { CapabilityStore } from '../../src/capability/store.js';
import type { PendingEnvelope, SuccessEnvelope } from '../../src/contract/envelope.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { ScriptedExplorer } from '../../src/discover/explorers/scripted.js';
import { runDiscovery } from '../../src/discover/run.js';
import { type BackofficeServer, loadTickets, startBackoffice } from '../../src/fixtures/backoffice/index.js';
import { Ladder } from '../../src/ladder/ladder.js';
import { formatReport, ladderReport } from '../../src/ladder/report.js';
import { capabilityDeps } from '../../src/replay/load.js';
import { Registrations } from '../../src/replay/registrations.js';
import { importOpenApi } from '../../src/rungs/api/import.js';
import { toolsFromApiFile } from '../../src/rungs/api/loader.js';
import { readSpec } from '../../src/rungs/api/openapi.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../src/rungs/ui/browser.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { passwordFormSignIn } from '../../src/rungs/ui/sign-in.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { tempDir } from '../support/temp.js';
import { FIXTURE_SPEC, writeOperations } from './support.js';

const NOTE = 'Statement re-sent by post; the customer confirmed receipt.';
const PASSWORD = 'backoffice-demo';

describe('worked example: ticket_get on rung 1, ticket_close_with_note on the script rung', () => {
  let fixture: BackofficeServer;
  let browser: Browser;
  let runtime: Runtime;
  let ladder: Ladder;
  const dir = tempDir();

  beforeAll(async () => {
    fixture = await startBackoffice({ password: PASSWORD });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const home = join(dir.path, 'home');
    const ticketGet = toolsFromApiFile(importOpenApi(readSpec(FIXTURE_SPEC)).file, { baseUrl: fixture.url });
    runtime = new Runtime({ home, env: { LIFT_SECRET_BACKOFFICE_PASSWORD: PASSWORD }, tools: ticketGet });

    // Discovery, once: the scripted explorer closes T-000101 on the pages and the compiler keeps what executed.
    const context = await browser.newContext();
    const discovered = await runDiscovery({
      store: runtime.store,
      capabilities: new CapabilityStore(runtime.store.capabilities),
      page: await context.newPage(),
      policy: parsePolicy(ticketClosePolicy(fixture.origin)),
      task: ticketCloseTask(fixture.origin, {
        ticketId: 'T-000101',
        note: 'Card unblocked after the customer called.',
      }),
      explorer: new ScriptedExplorer(ticketCloseScript('T-000101')),
      signIn: { recipe: passwordFormSignIn(fixture.user, { literal: PASSWORD }) },
      liftVersion: LIFT_VERSION,
    });
    await context.close();
    expect(discovered.status, JSON.stringify(discovered.status)).toMatchObject({ outcome: 'completed' });
    new Registrations(runtime.store.db).register({
      name: TICKET_CLOSE_CAPABILITY,
      revision: discovered.revision!,
      effectClass: 'visible',
      signIn: passwordFormSignIn(fixture.user, { secret: 'backoffice_password' }),
    });
    runtime.registry.add(await ticketCloseWithNoteTool(capabilityDeps(runtime)));

    ladder = new Ladder(runtime);
    ladder.declare(
      writeOperations(
        join(dir.path, 'backoffice.operations.yaml'),
        backofficeOperations({ spec: FIXTURE_SPEC, baseUrl: fixture.url, probeTicket: 'T-000103' }),
      ),
    );
  }, 120_000);

  afterAll(async () => {
    await runtime?.close();
    await browser?.close();
    await fixture?.close();
    dir.remove();
  });

  it('walks ticket_get to rung 1 and the close to rung 4, ruled out of rung 1 because the API has no close call', async () => {
    const read = await ladder.walk('ticket_get');
    expect(read.rung).toBe('api');
    const close = await ladder.walk('ticket_close_with_note');
    expect(close.rung).toBe('script');
    expect(close.results[0]?.tests.present).toMatchObject({
      passed: false,
      evidence: expect.stringContaining("'closeTicket' is not in openapi.json"),
    });
    const script = close.results[1]!;
    expect(script.tests.present?.evidence).toMatch(
      /capability 'ticket_close_page' rev:[0-9a-f]{16} \(6 steps\) is carried by tool 'ticket_close_with_note'/,
    );
    expect(script.tests.unattended?.evidence).toBe('every credential is stored: backoffice_password');
    expect(script.tests.readable_back?.evidence).toBe('read back by ticket_get on rung 1 (api)');
  });

  it('holds the close for review, replays the capability without a model once approved, and reads it back through the API', async () => {
    fixture.clearRequests();
    const held = (await runtime.invoke('ticket_close_with_note', {
      ticket_id: 'T-000102',
      resolution_note: NOTE,
      request_id: 'close-T-000102-1',
    })) as PendingEnvelope;
    expect(held.pending.gate).toBe('review');
    expect(held.pending.preview).toContain(NOTE);
    expect(fixture.tickets().find((ticket) => ticket.id === 'T-000102')?.status).toBe('open');

    const done = (await runtime.approve(held.pending.approval_id)) as SuccessEnvelope;
    expect(done).toMatchObject({
      ok: true,
      effect: 'changed',
      fields: { ticket_id: 'T-000102', status: 'closed', url: `${fixture.origin}/app/tickets/T-000102` },
      verified_by: 'ticket_get on rung 1 (API read of status and resolution_note after the replay)',
    });
    expect(done.checks.every((check) => check.passed)).toBe(true);
    const stored = fixture.tickets().find((ticket) => ticket.id === 'T-000102')!;
    expect(stored).toMatchObject({ status: 'closed', resolution_note: NOTE });
    expect(done.fields.closed_at).toBe(stored.closed_at);
    const paths = fixture.requests().map((request) => `${request.method} ${request.path}`);
    expect(paths.filter((path) => path === 'POST /app/tickets/T-000102/close')).toHaveLength(1);
    expect(paths.filter((path) => path === 'GET /api/tickets/T-000102')).toHaveLength(2);
    const events = await runtime.store.runs.events(done.run_id);
    expect(events.filter((event) => event.type.startsWith('model'))).toEqual([]);
  });

  it('returns effect existing for the same ticket and note, without touching the pages', async () => {
    fixture.clearRequests();
    const again = (await runtime.invoke('ticket_close_with_note', {
      ticket_id: 'T-000102',
      resolution_note: NOTE,
      request_id: 'close-T-000102-2',
    })) as PendingEnvelope;
    const repeat = (await runtime.approve(again.pending.approval_id)) as SuccessEnvelope;
    expect(repeat).toMatchObject({ ok: true, effect: 'existing', fields: { status: 'closed' } });
    const sameRequest = await runtime.invoke('ticket_close_with_note', {
      ticket_id: 'T-000102',
      resolution_note: NOTE,
      request_id: 'close-T-000102-1',
    });
    expect(sameRequest).toMatchObject({ ok: true, effect: 'existing' });
    expect(fixture.requests().filter((request) => request.path.startsWith('/app/'))).toEqual([]);
  });

  it('refuses to close again with another note, and reports a ticket that does not exist', async () => {
    const other = (await runtime.invoke('ticket_close_with_note', {
      ticket_id: 'T-000103',
      resolution_note: 'A different note',
      request_id: 'close-T-000103-1',
    })) as PendingEnvelope;
    expect(await runtime.approve(other.pending.approval_id)).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', outcome: 'not_started', details: { reason: 'closed_with_other_note' } },
    });
    const missing = (await runtime.invoke('ticket_close_with_note', {
      ticket_id: 'T-999999',
      resolution_note: NOTE,
      request_id: 'close-T-999999-1',
    })) as PendingEnvelope;
    expect(await runtime.approve(missing.pending.approval_id)).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(loadTickets().find((ticket) => ticket.id === 'T-000103')?.resolution_note).toBe(
      fixture.tickets().find((ticket) => ticket.id === 'T-000103')?.resolution_note,
    );
  });

  it('shows both operations in the report with their rung, evidence and no stop flags', async () => {
    const reports = await ladderReport(ladder);
    const close = reports.find((report) => report.operation === 'ticket_close_with_note')!;
    expect(close).toMatchObject({
      rung: 'script',
      tool: 'ticket_close_with_note',
      read_back: { operation: 'ticket_get', rung: 'api' },
      flags: [],
      proposal: undefined,
    });
    expect(close.failures.since_walk.ticket_close_with_note).toEqual({
      CONFLICT: 1,
      NOT_FOUND: 1,
    });
    const read = reports.find((report) => report.operation === 'ticket_get')!;
    expect(read).toMatchObject({ rung: 'api', tool: 'ticket_get', ruled_out: [], flags: [] });
    const text = formatReport(reports);
    expect(text).toContain(
      'ticket_close_with_note  rung 4 recorded script · read-back on rung 1 (ticket_get)',
    );
    expect(text).toContain(
      `ruled out   1 api closeTicket: fails "present": operation 'closeTicket' is not in openapi.json`,
    );
    expect(text).toContain('ticket_get  rung 1 API');
  });

  it('takes the close off its rung when the capability is switched off, and walks it back when it is rediscovered', async () => {
    const registrations = new Registrations(runtime.store.db);
    registrations.recordSurfaceChanged(
      TICKET_CLOSE_CAPABILITY,
      'SURFACE_CHANGED: the Close with note button is gone',
    );
    registrations.recordSurfaceChanged(
      TICKET_CLOSE_CAPABILITY,
      'SURFACE_CHANGED: the Close with note button is gone',
    );
    const off = await ladder.walk('ticket_close_with_note');
    expect(off).toMatchObject({ rung: undefined, direction: 'none' });
    expect(off.results[1]?.tests.present?.evidence).toContain(
      "capability 'ticket_close_page' is switched off",
    );
    expect(
      (await ladderReport(ladder)).find((report) => report.operation === 'ticket_close_with_note')?.flags,
    ).toEqual([expect.objectContaining({ flag: 'no_rung' })]);

    // A rediscovery stores a new revision and registers it again, which switches it back on.
    const capabilities = new CapabilityStore(runtime.store.capabilities);
    const current = await capabilities.load(registrations.get(TICKET_CLOSE_CAPABILITY)!.revision);
    const rediscovered = await capabilities.save({
      ...current,
      provenance: { ...current.provenance, createdAt: new Date().toISOString() },
    });
    registrations.register({
      name: TICKET_CLOSE_CAPABILITY,
      revision: rediscovered.revision,
      effectClass: 'visible',
      signIn: passwordFormSignIn(fixture.user, { secret: 'backoffice_password' }),
    });
    expect(await ladder.due()).toEqual([
      expect.objectContaining({ operation: 'ticket_close_with_note', trigger: 'rediscovered' }),
    ]);
    const [back] = await ladder.walkDue();
    expect(back).toMatchObject({ rung: 'script', direction: 'up', trigger: 'rediscovered' });
    expect(back?.results[1]?.fingerprint).toBe(`rev:${rediscovered.revision.slice(0, 16)}`);
  });
});
