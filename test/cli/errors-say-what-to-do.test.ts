import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackofficeServer, startBackoffice } from '../../src/fixtures/backoffice/index.js';
import { LIFT_BIN, lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir();
const env = { LIFT_HOME: join(dir.path, 'home') };
const run = (args: string[]) => lift(args, { cwd: dir.path, env, timeoutMs: 90_000 });
let server: BackofficeServer;

beforeAll(async () => {
  server = await startBackoffice();
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

describe('errors that say what to do', { timeout: 120_000 }, () => {
  it('answers NOT_FOUND for an unknown capability, as text and as JSON', async () => {
    const text = await run(['replay', 'nosuch', '--input', '{}']);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('NOT_FOUND');
    expect(text.stderr).not.toContain('ENOENT');
    const json = await run(['replay', 'nosuch', '--input', '{}', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', details: { capabilities: [] } },
    });
  });

  it('names a missing lint file without an internal path, and a bad schema format with the allowed ones', async () => {
    const lint = await run(['lint', 'missing.ts']);
    expect(lint.code).toBe(2);
    expect(lint.stderr).toContain('missing.ts: no such file');
    expect(lint.stderr).not.toMatch(/dist\/|src\//);
    const schema = await run(['schema', '--format', 'gemini']);
    expect(schema.code).toBe(2);
    expect(schema.stderr).toContain("'gemini'");
    expect(schema.stderr).toContain('openai, anthropic, mcp');
  });

  it('imports a description from the URL the fixture serves, with that origin as the base URL', async () => {
    const result = await run(['api', 'import', `${server.url}/api/openapi.json`]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('list it under "apis" in lift.config.json');
    const file = JSON.parse(readFileSync(join(dir.path, 'openapi.lift-api.json'), 'utf8'));
    expect(file.api).toMatchObject({ base_url: server.url, spec: `${server.url}/api/openapi.json` });
  });

  it('asks for --base-url when a description file names no servers', async () => {
    const spec = join(import.meta.dirname, '..', '..', 'src', 'fixtures', 'backoffice', 'openapi.json');
    const result = await run(['api', 'import', spec, '--out', join(dir.path, 'file.lift-api.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--base-url');
  });

  it('exits quietly when the reader of its output goes away (lift schema | head)', () => {
    const errors = join(dir.path, 'stderr.txt');
    const pipeline = `"${process.execPath}" "${LIFT_BIN}" schema --format openai 2>"${errors}" | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"`;
    const result = spawnSync('bash', ['-c', pipeline], {
      cwd: dir.path,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(readFileSync(errors, 'utf8')).toBe('');
    expect(result.stdout.trim()).toBe('0');
  });

  it('shows what it does on stderr with LIFT_LOG=debug, and nothing without it', async () => {
    const debug = await lift(['approvals'], { cwd: dir.path, env: { ...env, LIFT_LOG: 'debug' } });
    expect(debug.stdout.trim()).toBe('No held calls.');
    expect(debug.stderr).toMatch(/^lift debug [\d.]+ s {2}config /m);
    expect(debug.stderr).toMatch(/^lift debug [\d.]+ s {2}command approvals exits 0$/m);
    const quiet = await run(['approvals']);
    expect(quiet.stderr).toBe('');
  });
});
