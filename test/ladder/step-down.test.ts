import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ladder } from '../../src/ladder/ladder.js';
import { ladderReport } from '../../src/ladder/report.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { sendJson, startTestServer, type TestServer } from '../rungs/api/http-server.js';
import { tempDir } from '../support/temp.js';
import { lowerDoor, writeOperations, writeTicketSpec } from './support.js';

const TICKET = {
  id: 'T-000101',
  subject: 'Card blocked',
  member_id: 'M-1001',
  status: 'open',
  opened_at: '2026-11-20T09:12:00Z',
  resolution_note: null,
  closed_at: null,
};

describe('stepping down on evidence from the run log', () => {
  let server: TestServer;
  const dir = tempDir();
  let runtime: Runtime;
  let ladder: Ladder;
  const spec = join(dir.path, 'tickets.openapi.json');

  beforeAll(async () => {
    server = await startTestServer((_, response) => sendJson(response, 200, TICKET));
    writeTicketSpec(spec, { withClose: false });
    runtime = new Runtime({
      home: join(dir.path, 'home'),
      tools: [lowerDoor('ticket_read_page', 'ui', 'read')],
    });
    ladder = new Ladder(runtime);
    ladder.declare(
      writeOperations(join(dir.path, 'operations.yaml'), {
        operations: [
          {
            name: 'ticket_get',
            description: 'Read one ticket',
            system: 'backoffice',
            effect: 'read',
            fields: ['id', 'status'],
            candidates: [
              { rung: 'api', spec: 'tickets.openapi.json', operation_id: 'getTicket', base_url: server.url },
              { rung: 'ui', tool: 'ticket_read_page' },
            ],
          },
        ],
      }),
    );
  });
  afterAll(async () => {
    await runtime.close();
    await server.close();
    dir.remove();
  });

  /** Calls the rung-1 tool the way an agent would, through the runtime, so the run log records it. */
  async function callApi(times: number): Promise<void> {
    const walk = ladder.store.latest('ticket_get')!;
    expect(walk.rung).toBe('api');
    const { importOpenApi } = await import('../../src/rungs/api/import.js');
    const { toolsFromApiFile } = await import('../../src/rungs/api/loader.js');
    const { readSpec } = await import('../../src/rungs/api/openapi.js');
    const [tool] = toolsFromApiFile(importOpenApi(readSpec(spec), { only: ['getTicket'] }).file, {
      baseUrl: server.url,
    });
    for (let i = 0; i < times; i++) await runtime.invoke(tool!, { id: 'T-000101' });
  }

  it('proposes nothing after one SURFACE_CHANGED, and the next rung below after the second', async () => {
    await ladder.walk('ticket_get');
    server.handle((_, response) => sendJson(response, 200, { ...TICKET, state: 'open', status: undefined }));
    await callApi(1);
    expect(await ladder.check('ticket_get')).toBeUndefined();
    await callApi(1);
    const proposal = await ladder.check('ticket_get');
    expect(proposal).toMatchObject({
      from: 'api',
      to: 'ui',
      code: 'SURFACE_CHANGED',
      count: 2,
      threshold: 1,
      tool: 'ticket_get',
    });
  });

  it('steps down to the proposed rung and keeps rung 1 out while the description is unchanged', async () => {
    const walk = await ladder.stepDown('ticket_get');
    expect(walk).toMatchObject({ rung: 'ui', direction: 'down', trigger: 'step_down', previousRung: 'api' });
    expect(walk.results[0]?.tests.present?.evidence).toMatch(
      /^stepped down on evidence: 2 × SURFACE_CHANGED from ticket_get/,
    );
    server.handle((_, response) => sendJson(response, 200, TICKET));
    const again = await ladder.walk('ticket_get');
    expect(again).toMatchObject({ rung: 'ui', direction: 'same' });
    expect(again.results[0]?.tests.present?.evidence).toMatch(/^stepped down on evidence/);
    expect(await ladder.check('ticket_get')).toBeUndefined();
  });

  it('climbs back when the vendor publishes a new description', async () => {
    writeTicketSpec(spec, { withClose: true });
    expect(await ladder.due()).toEqual([
      expect.objectContaining({ operation: 'ticket_get', trigger: 'released' }),
    ]);
    const [walk] = await ladder.walkDue();
    expect(walk).toMatchObject({ rung: 'api', direction: 'up', trigger: 'released' });
    const [report] = await ladderReport(ladder);
    expect(report).toMatchObject({
      rung: 'api',
      step_downs: 1,
      failures: { total: { ticket_get: { SURFACE_CHANGED: 2 } } },
    });
    expect(report?.failures.since_walk).toEqual({ ticket_get: {}, ticket_read_page: {} });
  });

  it('fails "unattended" when the credential is not stored, and passes once a person stores it', async () => {
    const secured = join(dir.path, 'secured.openapi.json');
    const { readFileSync, writeFileSync } = await import('node:fs');
    const document = JSON.parse(readFileSync(spec, 'utf8'));
    document.security = [{ token: [] }];
    document.components.securitySchemes = { token: { type: 'http', scheme: 'bearer' } };
    writeFileSync(secured, JSON.stringify(document));
    ladder.declare(
      writeOperations(join(dir.path, 'secured.yaml'), {
        operations: [
          {
            name: 'ticket_peek',
            description: 'Read one ticket with a token',
            system: 'backoffice',
            effect: 'read',
            fields: ['id'],
            candidates: [
              { rung: 'api', spec: 'secured.openapi.json', operation_id: 'getTicket', base_url: server.url },
              { rung: 'ui', tool: 'ticket_read_page' },
            ],
          },
        ],
      }),
    );
    const walk = await ladder.walk('ticket_peek');
    expect(walk.rung).toBe('ui');
    expect(walk.results[0]?.tests.unattended).toEqual({
      passed: false,
      evidence: 'secret(s) not stored: back_office_ticket_api_token (a person must store them)',
    });
    runtime.store.secrets.set('back_office_ticket_api_token', 'canary-token-1234');
    expect((await ladder.walk('ticket_peek')).rung).toBe('api');
  });
});

describe('the three stop-retrofitting flags', () => {
  it('flags a UI rung on an own system, two step-downs, and an irreversible effect whose only door is a UI', async () => {
    const dir = tempDir();
    const spec = join(dir.path, 'tickets.openapi.json');
    writeTicketSpec(spec, { withClose: true });
    const runtime = new Runtime({
      home: join(dir.path, 'home'),
      tools: [
        lowerDoor('ticket_close_script', 'script'),
        lowerDoor('ticket_close_page', 'ui'),
        lowerDoor('member_delete_page', 'ui', 'irreversible'),
        lowerDoor('ticket_list_page', 'ui', 'read'),
      ],
    });
    try {
      const ladder = new Ladder(runtime);
      ladder.declare(
        writeOperations(join(dir.path, 'operations.yaml'), {
          systems: { intranet: { own: true }, vendor: { own: false } },
          operations: [
            {
              name: 'ticket_get',
              description: 'Read one ticket',
              system: 'vendor',
              effect: 'read',
              candidates: [{ rung: 'api', spec: 'tickets.openapi.json', operation_id: 'getTicket' }],
            },
            {
              name: 'ticket_close',
              description: 'Close a ticket',
              system: 'vendor',
              effect: 'visible',
              read_back: 'ticket_get',
              candidates: [
                { rung: 'api', spec: 'tickets.openapi.json', operation_id: 'closeTicket' },
                { rung: 'script', tool: 'ticket_close_script' },
                { rung: 'ui', tool: 'ticket_close_page' },
              ],
            },
            {
              name: 'member_delete',
              description: 'Delete a member for good',
              system: 'vendor',
              effect: 'irreversible',
              read_back: 'ticket_get',
              candidates: [{ rung: 'ui', tool: 'member_delete_page' }],
            },
            {
              name: 'ticket_list',
              description: 'List tickets on our own intranet',
              system: 'intranet',
              effect: 'read',
              candidates: [{ rung: 'ui', tool: 'ticket_list_page' }],
            },
          ],
        }),
      );
      for (const operation of ['ticket_get', 'ticket_close', 'member_delete', 'ticket_list'])
        await ladder.walk(operation);
      writeTicketSpec(spec, { withClose: false });
      expect((await ladder.walk('ticket_close')).rung).toBe('script');
      runtime.registry.remove('ticket_close_script');
      expect((await ladder.walk('ticket_close')).rung).toBe('ui');

      const flags = Object.fromEntries(
        (await ladderReport(ladder)).map((report) => [
          report.operation,
          report.flags.map((flag) => flag.flag),
        ]),
      );
      expect(flags).toEqual({
        member_delete: ['irreversible_only_through_ui'],
        ticket_close: ['stepped_down_twice'],
        ticket_get: [],
        ticket_list: ['ui_rung_on_own_system'],
      });
    } finally {
      await runtime.close();
      dir.remove();
    }
  });
});
