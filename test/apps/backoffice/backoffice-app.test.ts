import { mkdirSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackofficeServer, startBackoffice } from '../../../src/fixtures/backoffice/index.js';
import { lift } from '../../support/cli.js';
import { tempDir } from '../../support/temp.js';

interface Listed {
  name: string;
  rung: string;
  effect: string;
  gate: string;
  group?: string;
}

/** A port nothing listens on: taken from the system, then let go. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const listedIn = (stdout: string) => (JSON.parse(stdout) as { tools: Listed[] }).tools;
const names = (stdout: string) => listedIn(stdout).map((tool) => tool.name);

// Each step spawns the built lift command, as a person would type it; generous bounds for busy machines.
describe('the back-office app, enabled by settings.backoffice in lift.config', () => {
  let fixture: BackofficeServer;
  const dir = tempDir();
  const enabled = join(dir.path, 'enabled');
  const disabled = join(dir.path, 'disabled');
  const env = (folder: string) => ({ LIFT_HOME: join(folder, '.lift') });

  beforeAll(async () => {
    fixture = await startBackoffice();
    mkdirSync(enabled);
    mkdirSync(disabled);
    writeFileSync(
      join(enabled, 'lift.config.json'),
      JSON.stringify({ settings: { backoffice: { url: fixture.url } } }),
    );
  });
  afterAll(async () => {
    await fixture?.close();
    dir.remove();
  });

  it('lists ticket_get and ticket_close_with_note only when it is enabled', {
    timeout: 120_000,
  }, async () => {
    const without = await lift(['tools', 'list', '--json'], { cwd: disabled, env: env(disabled) });
    expect(without.code, without.stderr).toBe(0);
    expect(names(without.stdout)).not.toContain('ticket_get');
    expect(names(without.stdout)).not.toContain('ticket_close_with_note');

    const listed = await lift(['tools', 'list', '--json'], { cwd: enabled, env: env(enabled) });
    expect(listed.code, listed.stderr).toBe(0);
    const tools = listedIn(listed.stdout);
    expect(tools.find((tool) => tool.name === 'ticket_get')).toMatchObject({ rung: 'api', effect: 'read' });
    expect(tools.find((tool) => tool.name === 'ticket_close_with_note')).toMatchObject({
      rung: 'script',
      effect: 'visible',
      gate: 'review',
      group: 'backoffice',
    });
  });

  it('reads a ticket over the vendor API, and refuses to close a ticket closed with another note', {
    timeout: 120_000,
  }, async () => {
    const read = await lift(['call', 'ticket_get', '--input', '{"id":"T-000103"}'], {
      cwd: enabled,
      env: env(enabled),
    });
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ ok: true, fields: { id: 'T-000103', status: 'closed' } });

    const held = await lift(
      [
        'call',
        'ticket_close_with_note',
        '--input',
        JSON.stringify({
          ticket_id: 'T-000103',
          resolution_note: 'Another note',
          request_id: 'close-T-000103-9',
        }),
      ],
      { cwd: enabled, env: env(enabled) },
    );
    const pending = JSON.parse(held.stdout) as { pending: { approval_id: string; gate: string } };
    expect(pending.pending.gate).toBe('review');
    const approved = await lift(['approve', pending.pending.approval_id, '--json'], {
      cwd: enabled,
      env: env(enabled),
    });
    expect(JSON.parse(approved.stdout)).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', outcome: 'not_started', details: { reason: 'closed_with_other_note' } },
    });
    expect(fixture.tickets().find((ticket) => ticket.id === 'T-000103')?.resolution_note).toBe(
      'Address updated from the signed letter.',
    );
  });

  it('keeps the approval of a close whose back office is down: UPSTREAM_UNAVAILABLE, not_started, and the same yes runs once it is up', {
    timeout: 180_000,
  }, async () => {
    const port = await closedPort();
    const down = join(dir.path, 'down');
    mkdirSync(down);
    writeFileSync(
      join(down, 'lift.config.json'),
      JSON.stringify({ settings: { backoffice: { url: `http://127.0.0.1:${port}` } } }),
    );
    const call = (args: string[]) => lift(args, { cwd: down, env: env(down) });
    // T-000103 is closed with this note already: once the back office answers, the close is existing.
    const input = { ticket_id: 'T-000103', resolution_note: 'Address updated from the signed letter.' };
    const held = await call([
      'call',
      'ticket_close_with_note',
      '--input',
      JSON.stringify({ ...input, request_id: 'close-down-1' }),
    ]);
    expect(held.code, held.stderr).toBe(4);
    const id = (JSON.parse(held.stdout) as { pending: { approval_id: string } }).pending.approval_id;

    const unreachable = await call(['approve', id, '--json']);
    expect(unreachable.code).toBe(1);
    expect(JSON.parse(unreachable.stdout)).toMatchObject({
      ok: false,
      error: { code: 'UPSTREAM_UNAVAILABLE', outcome: 'not_started' },
    });
    const listed = await call(['approvals', '--json']);
    expect(
      (JSON.parse(listed.stdout) as Array<{ id: string; state: string }>).find((each) => each.id === id),
    ).toMatchObject({ state: 'pending' });

    const up = await startBackoffice({ port });
    try {
      const approved = await call(['approve', id, '--json']);
      expect(approved.code, approved.stderr).toBe(0);
      expect(JSON.parse(approved.stdout)).toMatchObject({
        ok: true,
        effect: 'existing',
        fields: { ticket_id: 'T-000103', status: 'closed' },
      });
    } finally {
      await up.close();
    }
  });

  it('declares its operations to the ladder, which walks them and reports both', {
    timeout: 180_000,
  }, async () => {
    const refused = await lift(['ladder', 'declare', '--app', 'backoffice'], {
      cwd: disabled,
      env: env(disabled),
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('The backoffice app is not enabled');

    const declared = await lift(['ladder', 'declare', '--app', 'backoffice'], {
      cwd: enabled,
      env: env(enabled),
    });
    expect(declared.stdout).toContain('2 operation(s) declared: ticket_get, ticket_close_with_note');

    const walked = await lift(['ladder', 'walk', '--due'], { cwd: enabled, env: env(enabled) });
    expect(walked.stdout).toContain('ticket_get: rung 1 (api), first');
    expect(walked.stdout).toContain("present FAIL: operation 'closeTicket' is not in openapi.json");
    // The tool is registered; what is missing until discovery compiles it is the page capability.
    expect(walked.stdout).toContain("present FAIL: no compiled capability is named 'ticket_close_page'");

    const report = await lift(['ladder', 'report'], { cwd: enabled, env: env(enabled) });
    expect(report.stdout).toContain('ticket_get  rung 1 API');
    expect(report.stdout).toContain('ticket_close_with_note  no rung · read-back on rung 1 (ticket_get)');
  });
});
