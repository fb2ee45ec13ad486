import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackofficeServer, startBackoffice } from '../../src/fixtures/backoffice/index.js';
import { Ladder } from '../../src/ladder/ladder.js';
import { ladderReport } from '../../src/ladder/report.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { tempDir } from '../support/temp.js';
import { lowerDoor, writeOperations, writeTicketSpec } from './support.js';

describe('ladder walk on the back office tickets', () => {
  let server: BackofficeServer;
  const dir = tempDir();
  let runtime: Runtime;
  let ladder: Ladder;
  const spec = join(dir.path, 'tickets.openapi.json');

  beforeAll(async () => {
    server = await startBackoffice();
    writeTicketSpec(spec, { withClose: false });
    runtime = new Runtime({
      home: join(dir.path, 'home'),
      tools: [lowerDoor('ticket_close_with_note', 'script')],
    });
    ladder = new Ladder(runtime);
    ladder.declare(
      writeOperations(join(dir.path, 'operations.yaml'), {
        systems: { backoffice: { own: false } },
        operations: [
          {
            name: 'ticket_get',
            description: 'Read one ticket',
            system: 'backoffice',
            effect: 'read',
            fields: ['id', 'status', 'resolution_note', 'closed_at'],
            candidates: [
              {
                rung: 'api',
                spec: 'tickets.openapi.json',
                operation_id: 'getTicket',
                base_url: server.url,
                probe: { id: 'T-000103' },
              },
            ],
          },
          {
            name: 'ticket_close_with_note',
            description: 'Close a ticket with a resolution note',
            system: 'backoffice',
            effect: 'visible',
            read_back: 'ticket_get',
            candidates: [
              {
                rung: 'api',
                spec: 'tickets.openapi.json',
                operation_id: 'closeTicket',
                base_url: server.url,
              },
              { rung: 'script', tool: 'ticket_close_with_note' },
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

  it('puts the read on rung 1 with the probe as evidence', async () => {
    const walk = await ladder.walk('ticket_get');
    expect(walk.rung).toBe('api');
    expect(walk.direction).toBe('first');
    const [api] = walk.results;
    expect(api?.tests.present?.evidence).toContain("'getTicket' (ticket_get)");
    expect(api?.tests.unattended?.evidence).toBe('needs no credential and no answer from a person');
    expect(api?.tests.readable_back?.evidence).toMatch(
      /probe \{"id":"T-000103"\} parsed into id, status, resolution_note, closed_at/,
    );
    expect(server.requests().some((request) => request.path === '/api/tickets/T-000103')).toBe(true);
  });

  it('sends the close down to the script rung because rung 1 fails "present", with read-back on rung 1', async () => {
    const walk = await ladder.walk('ticket_close_with_note');
    expect(walk.rung).toBe('script');
    expect(walk.results.map((result) => [result.rung, result.passed])).toEqual([
      ['api', false],
      ['script', true],
    ]);
    expect(walk.results[0]?.tests.present?.evidence).toContain(
      "operation 'closeTicket' is not in tickets.openapi.json",
    );
    expect(walk.results[1]?.tests.readable_back?.evidence).toBe('read back by ticket_get on rung 1 (api)');
  });

  it('climbs to rung 1 when the vendor ships the call, and steps down again when it is removed', async () => {
    writeTicketSpec(spec, { withClose: true });
    expect((await ladder.due()).map((due) => [due.operation, due.trigger])).toEqual(
      expect.arrayContaining([['ticket_close_with_note', 'released']]),
    );
    const walks = await ladder.walkDue();
    const close = walks.find((walk) => walk.operation === 'ticket_close_with_note');
    expect(close).toMatchObject({ rung: 'api', direction: 'up', trigger: 'released' });
    expect(close?.results[0]?.tests.present?.evidence).toContain("'closeTicket' (ticket_close)");

    writeTicketSpec(spec, { withClose: false });
    const down = await ladder.walk('ticket_close_with_note');
    expect(down).toMatchObject({ rung: 'script', direction: 'down', previousRung: 'api' });

    writeTicketSpec(spec, { withClose: true });
    const back = await ladder.walk('ticket_close_with_note');
    expect(back).toMatchObject({ rung: 'api', direction: 'up' });
    writeTicketSpec(spec, { withClose: false });
    await ladder.walk('ticket_close_with_note');
  });

  it('re-walks on the schedule the user sets', async () => {
    ladder.store.schedule('ticket_get', 60_000, Date.now() - 120_000);
    expect((await ladder.due()).find((due) => due.operation === 'ticket_get')?.trigger).toBe('schedule');
    const [walk] = (await ladder.walkDue()).filter((each) => each.operation === 'ticket_get');
    expect(walk).toMatchObject({ trigger: 'schedule', rung: 'api', direction: 'same' });
    expect(Date.parse(ladder.store.scheduleOf('ticket_get')!.nextAt)).toBeGreaterThan(Date.now());
    expect((await ladder.due()).find((due) => due.operation === 'ticket_get')).toBeUndefined();
  });

  it('reports each operation with its rung, why rung 1 was ruled out, and no stop flags for a vendor system', async () => {
    const reports = await ladderReport(ladder);
    const close = reports.find((report) => report.operation === 'ticket_close_with_note')!;
    expect(close).toMatchObject({
      rung: 'script',
      read_back: { operation: 'ticket_get', rung: 'api' },
      own_system: false,
    });
    expect(close.ruled_out).toEqual([
      expect.objectContaining({
        rung: 'api',
        test: 'present',
        evidence: expect.stringContaining('closeTicket'),
      }),
    ]);
    expect(close.step_downs).toBe(2);
    expect(close.flags.map((flag) => flag.flag)).toEqual(['stepped_down_twice']);
    const get = reports.find((report) => report.operation === 'ticket_get')!;
    expect(get).toMatchObject({ rung: 'api', ruled_out: [], flags: [] });
    expect(get.evidence.map((item) => item.test)).toEqual(['present', 'unattended', 'readable_back']);
  });

  it('fails "readable back" for a write whose read-back operation is not declared', async () => {
    ladder.declare(
      writeOperations(join(dir.path, 'orphan.yaml'), {
        operations: [
          {
            name: 'ticket_reopen',
            description: 'Reopen a ticket',
            system: 'backoffice',
            effect: 'visible',
            read_back: 'ticket_fetch',
            candidates: [{ rung: 'script', tool: 'ticket_close_with_note' }],
          },
        ],
      }),
    );
    const walk = await ladder.walk('ticket_reopen');
    expect(walk.rung).toBeUndefined();
    expect(walk.results[0]?.tests.readable_back).toEqual({
      passed: false,
      evidence: 'its read-back ticket_fetch has no rung: ticket_fetch is not declared',
    });
  });
});
