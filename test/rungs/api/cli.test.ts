import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lift } from '../../support/cli.js';
import { tempDir } from '../../support/temp.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FIXTURE_SPEC = join(ROOT, 'src', 'fixtures', 'backoffice', 'openapi.json');
const LARGE_SPEC = join(ROOT, 'test', 'fixtures', 'openapi', 'petstore-large.yaml');

describe('lift api', { timeout: 120_000 }, () => {
  const dir = tempDir();
  const env = { LIFT_HOME: join(dir.path, 'home') };
  afterAll(() => dir.remove());

  it('imports the fixture description into a tool file a person can review', async () => {
    const out = join(dir.path, 'tickets.lift-api.json');
    const result = await lift(
      ['api', 'import', FIXTURE_SPEC, '--out', out, '--base-url', 'http://127.0.0.1:9'],
      { cwd: dir.path, env },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ticket_get\s+read\s+Read one ticket/);
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file.api).toMatchObject({ base_url: 'http://127.0.0.1:9', auth: { kind: 'none' } });
    expect(file.tools[0]).toMatchObject({ name: 'ticket_get', operation_id: 'getTicket', method: 'get' });
  });

  it('shows the contract card of the edited file, not a guess', async () => {
    const out = join(dir.path, 'tickets.lift-api.json');
    const file = JSON.parse(readFileSync(out, 'utf8'));
    file.tools[0].output.fields = ['id', 'status', 'closed_at'];
    file.tools[0].deadline_ms = 3_000;
    writeFileSync(out, JSON.stringify(file, null, 2));
    const result = await lift(['api', 'show', out, 'ticket_get'], { cwd: dir.path, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('ticket_get · Read one ticket');
    expect(result.stdout).toMatch(/Rung\s+1 API/);
    expect(result.stdout).toContain('fields: id, status, closed_at');
    expect(result.stdout).toContain('deadline: 3 s');
  });

  it('imports chosen operations of the larger description and names the credential to store', async () => {
    const out = join(dir.path, 'petstore.lift-api.json');
    const result = await lift(
      ['api', 'import', LARGE_SPEC, '--only', 'getPetById', '--only', 'payInvoice', '--out', out, '--json'],
      { cwd: dir.path, env },
    );
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.tools.map((tool: { name: string; effect: string }) => [tool.name, tool.effect])).toEqual([
      ['pet_get', 'read'],
      ['invoice_pay', 'irreversible'],
    ]);
    expect(report.auth).toEqual({ kind: 'bearer', secret: 'petstore_clinic_bearer_auth' });
  });

  it('refuses an operation the description does not have', async () => {
    const result = await lift(['api', 'import', LARGE_SPEC, '--only', 'getUnicorn'], { cwd: dir.path, env });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("No operation has the id 'getUnicorn'");
  });
});
