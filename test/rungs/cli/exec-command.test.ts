import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, gone } from './helpers.js';

const MAIN = new URL('../../../dist/cli/main.js', import.meta.url).pathname;
const home = mkdtempSync(join(tmpdir(), 'lift-exec-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Runs the built `lift` command and collects its output; bounded by a generous timeout. */
function lift(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('node', [MAIN, ...args], {
      cwd: home,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        LIFT_HOME: join(home, '.lift'),
        LIFT_SECRET_CANARY: 'canary-7f3a9e21',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

describe('lift exec', () => {
  it('prints the envelope of a program that succeeded', async () => {
    const { code, stdout } = await lift([
      'exec',
      '--json',
      '--',
      'sh',
      '-c',
      'echo on hand: 12; echo warn >&2',
    ]);
    expect(code).toBe(0);
    const envelope = JSON.parse(stdout);
    expect(envelope.ok).toBe(true);
    expect(envelope.fields).toMatchObject({ exit_code: 0, stdout: 'on hand: 12\n', stderr: 'warn\n' });
    expect(envelope.duration_ms).toBeGreaterThan(0);
  });

  it('returns within its deadline for a program that forks a grandchild holding stdout, and leaves nothing behind', async () => {
    const { code, stdout } = await lift([
      'exec',
      '--json',
      '--deadline',
      '1',
      '--',
      `${FIXTURES}grandchild-holds-stdout.sh`,
    ]);
    expect(code).toBe(124);
    const envelope = JSON.parse(stdout);
    expect(envelope.error.code).toBe('TIMEOUT');
    // Measured by the call itself, so a slow node start-up on a busy machine does not count.
    expect(envelope.duration_ms).toBeLessThan(1_000 + 1_000);
    const grandchild = Number(/grandchild (\d+)/.exec(envelope.error.details.stdout_tail)?.[1]);
    expect(gone(grandchild)).toBe(true);
    expect(gone(envelope.error.details.pid)).toBe(true);
  });

  it('answers a --confirm question once and stops at an unknown one', async () => {
    const asks = 'print(input("Delete 3 rows? [y/N] ")); input("Really? ")';
    const { stdout } = await lift([
      'exec',
      '--json',
      '--confirm',
      'Delete \\d+ rows\\?=>y',
      '--',
      'python3',
      '-c',
      asks,
    ]);
    const envelope = JSON.parse(stdout);
    expect(envelope.error.code).toBe('PROMPT_UNEXPECTED');
    expect(envelope.error.details.answered).toEqual(['Delete 3 rows? [y/N]']);
    expect(envelope.error.hint).toContain('Really?');
  });

  it('passes the program status through and caps the output with a cut count', async () => {
    const { code, stdout } = await lift([
      'exec',
      '--json',
      '--cap',
      '100',
      '--',
      'sh',
      '-c',
      'seq 1 10000; echo canary-7f3a9e21 >&2; exit 3',
    ]);
    expect(code).toBe(3);
    const envelope = JSON.parse(stdout);
    expect(envelope.error.code).toBe('PROGRAM_FAILED');
    expect(envelope.error.details.stdout_bytes).toBe(48_894);
    expect(envelope.error.details.stdout_tail).toContain('bytes cut');
    expect(stdout).not.toContain('canary-7f3a9e21');
  });

  it('rejects a malformed --confirm before running anything', async () => {
    const { code, stderr } = await lift(['exec', '--confirm', 'no-arrow', '--', 'true']);
    expect(code).not.toBe(0);
    expect(stderr).toContain('REGEX=>ANSWER');
  });
});

describe('lift exec with a pattern or a number that would defeat its deadline', () => {
  const forty = 'a'.repeat(40);

  it("answers --confirm '(a+)+$=>y' over 40 a's at once, whether the pattern matches or not", async () => {
    // The line ends in '!': a backtracking engine tries 2^40 ways and never returns.
    const asked = await lift([
      ...['exec', '--json', '--deadline', '5', '--confirm', '(a+)+$=>y', '--'],
      ...['sh', '-c', `printf '${forty}!'; read answer`],
    ]);
    expect(asked.code).toBe(1);
    const unknown = JSON.parse(asked.stdout);
    expect(unknown.error.code).toBe('PROMPT_UNEXPECTED');
    expect(unknown.error.details.duration_ms).toBeLessThan(5_000);

    const matched = await lift([
      ...['exec', '--json', '--deadline', '5', '--confirm', '(a+)+$=>y', '--'],
      ...['sh', '-c', `printf '${forty}'; read answer; echo "got $answer"`],
    ]);
    expect(matched.code).toBe(0);
    expect(JSON.parse(matched.stdout).fields).toMatchObject({ answered: [forty], stdout: `${forty}got y\n` });
  });

  it('refuses a --confirm pattern that needs backtracking with BAD_INPUT, before running anything', async () => {
    const marker = join(home, 'ran');
    const { code, stderr } = await lift(['exec', '--confirm', '(?=y)y=>n', '--', 'touch', marker]);
    expect(code).toBe(2);
    expect(stderr).toContain('BAD_INPUT');
    expect(stderr).toContain('linear-time engine');
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses --deadline 1e9 (and other out-of-range numbers) with BAD_INPUT naming the range', async () => {
    for (const deadline of ['1e9', '0', '-1', 'abc', 'Infinity']) {
      const { code, stderr } = await lift(['exec', `--deadline=${deadline}`, '--', 'true']);
      expect(code).toBe(2);
      expect(stderr).toContain(
        `BAD_INPUT: --deadline takes seconds, more than 0 and at most 86400, not '${deadline}'`,
      );
      expect(stderr).not.toContain('TimeoutOverflowWarning');
    }
    const { code, stderr } = await lift(['exec', '--cap', '1e12', '--', 'true']);
    expect(code).toBe(2);
    expect(stderr).toContain('BAD_INPUT: --cap takes a whole number of bytes from 1 to 67108864');
  });

  it('answers a refused flag as JSON on standard output when --json was given', async () => {
    const refused = await lift(['exec', '--deadline', '1e9', '--json', '--', 'true']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('');
    expect(JSON.parse(refused.stdout)).toEqual({
      ok: false,
      error: {
        code: 'BAD_INPUT',
        message: "--deadline takes seconds, more than 0 and at most 86400, not '1e9'.",
        hint: 'lift exec --help shows its flags and examples.',
      },
    });
    // A pattern refusal keeps its own hint; an unknown flag is a usage error like any other.
    const pattern = await lift(['exec', '--json', '--confirm', '(?=y)y=>n', '--', 'true']);
    expect(pattern.code).toBe(2);
    expect(JSON.parse(pattern.stdout).error).toMatchObject({ code: 'BAD_INPUT' });
    expect(JSON.parse(pattern.stdout).error.hint).toContain('linear-time engine');
    const unknown = await lift(['exec', '--json', '--dedline', '5', '--', 'true']);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout).error.message).toContain('--dedline');
    // --json after the program is the program's: lift answers as text.
    const theirs = await lift(['exec', '--deadline', '0', 'echo', '--json']);
    expect(theirs.code).toBe(2);
    expect(theirs.stdout).toBe('');
    expect(theirs.stderr).toContain('BAD_INPUT: --deadline takes seconds');
  });
});
