import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backofficeOperations } from '../../src/apps/backoffice/operations.js';
import { type BackofficeServer, startBackoffice } from '../../src/fixtures/backoffice/index.js';
import { lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { FIXTURE_SPEC, writeOperations } from './support.js';

describe('lift ladder', () => {
  let fixture: BackofficeServer;
  const dir = tempDir();
  const env = { LIFT_HOME: join(dir.path, 'home') };
  beforeAll(async () => {
    fixture = await startBackoffice();
    writeOperations(
      join(dir.path, 'operations.yaml'),
      backofficeOperations({ spec: FIXTURE_SPEC, baseUrl: fixture.url, probeTicket: 'T-000103' }),
    );
  });
  afterAll(async () => {
    await fixture.close();
    dir.remove();
  });

  // Each step spawns the built lift command, as a person would type it; generous bounds for busy machines.
  it('declares, walks and reports; without the close capability a person keeps the close', {
    timeout: 180_000,
  }, async () => {
    const declared = await lift(['ladder', 'declare', 'operations.yaml'], { cwd: dir.path, env });
    expect(declared.stdout).toContain('2 operation(s) declared: ticket_get, ticket_close_with_note');

    const read = await lift(['ladder', 'walk', 'ticket_get'], { cwd: dir.path, env });
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('ticket_get: rung 1 (api), first (demand)');

    const close = await lift(['ladder', 'walk', 'ticket_close_with_note'], { cwd: dir.path, env });
    expect(close.code).toBe(1);
    expect(close.stdout).toContain('no rung: a person keeps it');
    expect(close.stdout).toContain("present FAIL: operation 'closeTicket' is not in openapi.json");
    expect(close.stdout).toContain("present FAIL: no compiled capability is named 'ticket_close_page'");

    const text = await lift(['ladder', 'report'], { cwd: dir.path, env });
    expect(text.stdout).toContain('ticket_get  rung 1 API');
    expect(text.stdout).toContain('ticket_close_with_note  no rung · read-back on rung 1 (ticket_get)');
    expect(text.stdout).toContain(
      'FLAG        No door passes the three tests: a person keeps this operation.',
    );
  });

  it('schedules a re-walk and says when nothing is due', { timeout: 120_000 }, async () => {
    const scheduled = await lift(['ladder', 'schedule', 'ticket_get', '--every', '7d'], {
      cwd: dir.path,
      env,
    });
    expect(scheduled.stdout).toContain('ticket_get will be re-walked every 7d');
    const json = await lift(['ladder', 'schedule', 'ticket_get', '--every', '7d', '--json'], {
      cwd: dir.path,
      env,
    });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      operation: 'ticket_get',
      every_ms: 7 * 86_400_000,
    });
    const due = await lift(['ladder', 'walk', '--due'], { cwd: dir.path, env });
    expect(due.stdout).toBe('Nothing is due.\n');
  });
});
