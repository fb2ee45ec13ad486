import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { estimatedBits, weakTokenProblem } from '../../src/cli/serve-token.js';
import { lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir('lift-serve-token-');
afterAll(() => dir.remove());

let homes = 0;
function newHome(): { home: string; env: Record<string, string> } {
  const home = join(dir.path, `home-${++homes}`);
  return { home, env: { LIFT_HOME: home } };
}

function stored(home: string): Record<string, string> {
  return JSON.parse(readFileSync(join(home, 'secrets.json'), 'utf8')) as Record<string, string>;
}

describe('the estimate of a serve token', () => {
  it('takes random tokens of 128 bits and more, and refuses short, patterned and wordy ones', () => {
    for (const strong of [
      randomBytes(16).toString('hex'),
      randomBytes(32).toString('hex'),
      randomBytes(32).toString('base64url'),
      randomBytes(32).toString('base64'),
      'Nt2tf7pNeuc0UVEWTKn0CD',
    ])
      expect(weakTokenProblem(strong), strong).toBeUndefined();
    for (const weak of [
      'x',
      randomBytes(15).toString('hex'),
      'Nt2tf7pNeuc0UVEWTKn0C',
      'a'.repeat(64),
      'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ',
      'abc123'.repeat(12),
      'canary-serve-token-7f3a9c',
      'correct horse battery staple',
    ])
      expect(weakTokenProblem(weak), weak).toMatch(/at least 128 are needed/);
    expect(estimatedBits('0123456789abcdef'.repeat(4))).toBeLessThan(80);
  });
});

describe('lift secrets set serve_token, lift serve --http and lift doctor', () => {
  it('refuse a one-character token with a hint naming lift secrets generate serve_token', async () => {
    const { env } = newHome();
    const set = await lift(['secrets', 'set', 'serve_token'], { cwd: dir.path, env, input: 'x\n' });
    expect(set.code).toBe(1);
    expect(set.stderr).toContain('BAD_INPUT: The serve_token holds about 4 bits of entropy');
    expect(set.stderr).toContain('hint: lift secrets generate serve_token');
    expect(set.stderr).not.toContain('stored secret');
    const json = await lift(['secrets', 'set', 'serve_token', '--json'], { cwd: dir.path, env, input: 'x' });
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });

    // A weak token from the environment is refused where it would be used.
    const weak = { ...env, LIFT_SECRET_SERVE_TOKEN: 'x' };
    const serve = await lift(['serve', '--http', '0'], { cwd: dir.path, env: weak });
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain('lift serve --http refuses to start: The serve_token holds about 4 bits');
    expect(serve.stderr).toContain('lift secrets generate serve_token');
    const consoleRun = await lift(['console', '--port', '0'], { cwd: dir.path, env: weak });
    expect(consoleRun.code).toBe(1);
    expect(consoleRun.stderr).toContain('lift secrets generate serve_token');
    const doctor = await lift(['doctor', '--json'], { cwd: dir.path, env: { ...weak, LIFT_MODEL: '' } });
    const check = (JSON.parse(doctor.stdout) as { checks: Array<{ name: string }> }).checks.find(
      (each) => each.name === 'serve token',
    );
    expect(check).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('about 4 bits'),
      fix: 'lift secrets generate serve_token --out FILE',
    });
    // Other secrets are whatever the service gave: a PIN is stored as it is.
    const pin = await lift(['secrets', 'set', 'card_pin'], { cwd: dir.path, env, input: '4821' });
    expect(pin.code).toBe(0);
  });

  it('store a strong token given on standard input', async () => {
    const { home, env } = newHome();
    const token = randomBytes(32).toString('base64url');
    const set = await lift(['secrets', 'set', 'serve_token'], { cwd: dir.path, env, input: `${token}\n` });
    expect(set.code, set.stderr).toBe(0);
    expect(stored(home).serve_token).toBe(token);
  });
});

describe('lift secrets generate serve_token', () => {
  it('stores 256 random bits and prints them nowhere, unless --out names a new private file', async () => {
    const { home, env } = newHome();
    const first = await lift(['secrets', 'generate', 'serve_token'], { cwd: dir.path, env });
    expect(first.code, first.stderr).toBe(0);
    const token = stored(home).serve_token ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(estimatedBits(token)).toBeGreaterThan(200);
    expect(first.stdout + first.stderr).not.toContain(token);
    expect(first.stdout).toContain('it is not printed');

    const out = join(dir.path, 'token.txt');
    const second = await lift(['secrets', 'generate', 'serve_token', '--out', out, '--json'], {
      cwd: dir.path,
      env,
    });
    expect(second.code, second.stderr).toBe(0);
    const replaced = stored(home).serve_token ?? '';
    expect(replaced).not.toBe(token);
    expect(readFileSync(out, 'utf8')).toBe(`${replaced}\n`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(JSON.parse(second.stdout)).toEqual({
      ok: true,
      name: 'serve_token',
      file: join(home, 'secrets.json'),
      out,
      bits: 256,
    });
    expect(second.stdout).not.toContain(replaced);

    // --out never writes through an existing file (or a link to one), and then nothing changes.
    writeFileSync(join(dir.path, 'taken.txt'), 'keep me');
    const taken = await lift(['secrets', 'generate', 'serve_token', '--out', 'taken.txt'], {
      cwd: dir.path,
      env,
    });
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('already exists');
    expect(readFileSync(join(dir.path, 'taken.txt'), 'utf8')).toBe('keep me');
    expect(stored(home).serve_token).toBe(replaced);

    const serve = await lift(['doctor', '--json'], { cwd: dir.path, env: { ...env, LIFT_MODEL: '' } });
    expect(
      (JSON.parse(serve.stdout) as { checks: Array<{ name: string; status: string }> }).checks.find(
        (each) => each.name === 'serve token',
      )?.status,
    ).toBe('ok');
  });
});
