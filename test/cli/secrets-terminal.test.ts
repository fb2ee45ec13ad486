import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LIFT_BIN } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const AT_TERMINAL = join(import.meta.dirname, '..', 'fixtures', 'cli', 'at-terminal.py');
const dir = tempDir('lift-secrets-tty-');
afterAll(() => dir.remove());

let homes = 0;

/** `lift ARGS` on a real pseudo-terminal (python's pty module), with `keys` typed at its prompt. */
function atTerminal(args: string[], keys: string[]): Promise<{ shown: string; code: number; home: string }> {
  const home = join(dir.path, `home-${++homes}`);
  return new Promise((resolve, reject) => {
    execFile(
      '/usr/bin/python3',
      [AT_TERMINAL, JSON.stringify(keys), '--', process.execPath, LIFT_BIN, ...args],
      { cwd: dir.path, env: { ...process.env, LIFT_HOME: home }, timeout: 90_000 },
      (error, stdout) => {
        if (error) return reject(error);
        resolve({ ...(JSON.parse(stdout) as { shown: string; code: number }), home });
      },
    );
  });
}

function stored(home: string): Record<string, string> {
  const file = join(home, 'secrets.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

describe('lift secrets set at a terminal', () => {
  it('asks for the value and does not echo it', async () => {
    const value = 'typed-Value-9f3kQ2';
    // Ctrl-D after Enter: the command before the fix read standard input to its end.
    const { shown, code, home } = await atTerminal(['secrets', 'set', 'api_key'], [`${value}\r`, '\u0004']);
    expect(code, shown).toBe(0);
    expect(shown).toContain('Type or paste the value of api_key, then Enter (it is not shown):');
    expect(shown).not.toContain(value);
    expect(shown).toContain("stored secret 'api_key'");
    expect(stored(home).api_key).toBe(value);
  });

  it('takes back a character on Backspace, and stores nothing on Ctrl-C', async () => {
    const erased = await atTerminal(['secrets', 'set', 'api_key'], ['abcX\u007fdef\r', '\u0004']);
    expect(erased.code, erased.shown).toBe(0);
    expect(stored(erased.home).api_key).toBe('abcdef');
    const cancelled = await atTerminal(['secrets', 'set', 'api_key'], ['half\u0003', '\u0004']);
    expect(cancelled.code).not.toBe(0);
    expect(cancelled.shown).toContain('nothing was stored');
    expect(cancelled.shown).not.toContain('half');
    expect(stored(cancelled.home)).toEqual({});
  });

  it('refuses a weak serve_token typed there too, naming lift secrets generate serve_token', async () => {
    const { shown, code, home } = await atTerminal(['secrets', 'set', 'serve_token'], ['x\r', '\u0004']);
    expect(code).toBe(1);
    expect(shown).toContain('lift secrets generate serve_token');
    expect(stored(home)).toEqual({});
  });
});
