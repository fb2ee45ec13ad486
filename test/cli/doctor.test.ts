import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir();
const home = join(dir.path, 'home');
afterAll(() => dir.remove());

interface Report {
  ok: boolean;
  checks: Array<{ name: string; status: string; detail: string; fix?: string }>;
}

async function doctor(env: Record<string, string>): Promise<{ code: number | null; report: Report }> {
  const result = await lift(['doctor', '--json'], { cwd: dir.path, env: { LIFT_HOME: home, ...env } });
  return { code: result.code, report: JSON.parse(result.stdout) as Report };
}

const find = (report: Report, name: string) => report.checks.find((check) => check.name === name);

describe('lift doctor', () => {
  it('checks Node, the programs, LIFT_HOME, the model and the serve token, with a fix for each problem', async () => {
    const { code, report } = await doctor({ LIFT_MODEL: '' });
    expect(code).toBe(0);
    expect(find(report, 'node')?.status).toBe('ok');
    expect(find(report, 'chromium')?.status).toBe('ok');
    expect(find(report, 'LIFT_HOME')?.status).toBe('ok');
    expect(find(report, 'model')).toMatchObject({
      status: 'warn',
      fix: expect.stringContaining('LIFT_MODEL'),
    });
    expect(find(report, 'serve token')).toMatchObject({
      status: 'warn',
      fix: expect.stringContaining('serve_token'),
    });
    const missing = await doctor({ LIFT_MODEL: '', PATH: join(dir.path, 'empty') });
    expect(find(missing.report, 'hledger')).toMatchObject({
      status: 'warn',
      fix: expect.stringContaining('apt-get install -y --no-install-recommends hledger'),
    });
    // Per family: the setup group that brings the program, and the script's line for it.
    expect(find(missing.report, 'hledger')?.fix).toMatch(/^bash scripts\/setup\.sh {3}/);
    expect(find(missing.report, 'blender')).toMatchObject({
      detail: expect.stringContaining('setup group design'),
      fix: expect.stringContaining('bash scripts/setup.sh design'),
    });
  });

  it('reaches the model base URL, and fails with the fix when it does not answer', async () => {
    const server = createServer((_, response) => response.writeHead(200).end('{"data":[]}'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as AddressInfo).port;
    try {
      const up = await doctor({ LIFT_MODEL: 'vllm:qwen', LIFT_BASE_URL: `http://127.0.0.1:${port}/v1` });
      expect(find(up.report, 'model base URL')).toMatchObject({
        status: 'ok',
        detail: expect.stringContaining('HTTP 200'),
      });
    } finally {
      await new Promise((done) => server.close(done));
    }
    const down = await doctor({ LIFT_MODEL: 'vllm:qwen', LIFT_BASE_URL: `http://127.0.0.1:${port}/v1` });
    expect(down.code).toBe(1);
    expect(down.report.ok).toBe(false);
    expect(find(down.report, 'model base URL')?.status).toBe('fail');
  });

  it('fails fast with "set LIFT_HOME" when the home cannot be written, also from /proc', async () => {
    const unwritable = await doctor({ LIFT_HOME: '/proc/lift-home' });
    expect(find(unwritable.report, 'LIFT_HOME')).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('LIFT_HOME'),
    });
    const env = { LIFT_HOME: '' };
    for (const args of [
      ['tools', 'list'],
      ['serve', '--stdio'],
    ]) {
      const result = await lift(args, { cwd: '/proc', env, input: '', timeoutMs: 30_000 });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('Set LIFT_HOME');
    }
  });
});
