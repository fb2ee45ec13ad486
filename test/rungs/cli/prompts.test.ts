import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWrapped } from '../../../src/rungs/cli/run-wrapped.js';
import { FIXTURES, failure, gone, liveInGroup, startupMs } from './helpers.js';

const soon = (ms = 10_000) => Date.now() + ms;
const temp = mkdtempSync(join(tmpdir(), 'lift-prompts-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('a program that waits for a person', () => {
  it('python input() ends in PROMPT_UNEXPECTED in under a second, with the question as the hint', async () => {
    const startup = await startupMs('python3', ['-c', 'pass']);
    const { error, ms } = await failure(
      runWrapped({ program: 'python3', args: ['-c', 'input("Which warehouse? ")'], deadline: soon() }),
    );
    expect(error.code).toBe('PROMPT_UNEXPECTED');
    expect(error.hint).toContain('Which warehouse?');
    expect(ms).toBeLessThan(1_000 + startup);
    expect(liveInGroup(error.details?.pid as number)).toEqual([]);
  });

  it("python3 -c 'input()' with no question printed is PROMPT_UNEXPECTED too", async () => {
    const startup = await startupMs('python3', ['-c', 'pass']);
    const { error, ms } = await failure(
      runWrapped({ program: 'python3', args: ['-c', 'input()'], deadline: soon() }),
    );
    expect(error.code).toBe('PROMPT_UNEXPECTED');
    expect(error.hint).toContain('reads its standard input');
    expect(ms).toBeLessThan(1_000 + startup);
  });

  it('ssh-keygen asking for a passphrase ends in AUTH_REQUIRED in under a second and writes no key', async () => {
    const startup = await startupMs('ssh-keygen', ['-l', '-f', '/dev/null']);
    const key = join(temp, 'id_test');
    const { error, ms } = await failure(
      runWrapped({
        program: 'ssh-keygen',
        args: ['-t', 'ed25519', '-f', key, '-C', 'lift-test'],
        deadline: soon(),
      }),
    );
    expect(error.code).toBe('AUTH_REQUIRED');
    expect(ms).toBeLessThan(1_000 + startup);
    expect(JSON.stringify(error.details)).not.toContain('passphrase (empty');
    expect(existsSync(key)).toBe(false);
    expect(gone(error.details?.pid as number)).toBe(true);
  });

  it('a question on a partial line while the program waits in select() is caught without a read', async () => {
    const startup = await startupMs('python3', ['-c', 'pass']);
    const { error, ms } = await failure(
      runWrapped({ program: `${FIXTURES}ask-then-wait.py`, deadline: soon() }),
    );
    expect(error.code).toBe('PROMPT_UNEXPECTED');
    expect(error.hint).toContain('Overwrite the existing file?');
    expect(ms).toBeLessThan(1_000 + startup);
  });

  it('cat reading standard input with nothing to read is stopped, not left waiting', async () => {
    const { error } = await failure(runWrapped({ program: 'cat', deadline: soon() }));
    expect(error.code).toBe('PROMPT_UNEXPECTED');
  });

  it('input passed by the tool is written and closed, so the program sees an end of input', async () => {
    const result = await runWrapped({ program: 'cat', input: 'sku-1\nsku-2\n', deadline: soon() });
    expect(result.stdout.text).toBe('sku-1\nsku-2\n');
  });
});

describe('known confirmations', () => {
  const confirmations = [{ pattern: /Apply the change\? \[y\/N\]/, answer: 'yes' }];

  it('are answered once when the call was approved', async () => {
    const result = await runWrapped({
      program: `${FIXTURES}confirm-twice.py`,
      confirmations,
      approved: true,
      deadline: soon(),
    });
    expect(result.answered).toEqual(['Apply the change? [y/N]']);
    expect(result.stdout.text).toContain('got yes');
  });

  it('are not answered when the gate did not approve the call', async () => {
    const { error } = await failure(
      runWrapped({
        program: `${FIXTURES}confirm-twice.py`,
        confirmations,
        approved: false,
        effectStarts: 'confirmation',
        deadline: soon(),
      }),
    );
    expect(error.code).toBe('PROMPT_UNEXPECTED');
    expect(error.message).toContain('not approved');
    expect(error.outcome).toBe('not_started');
  });

  it('asked a second time, end the call instead of being answered again', async () => {
    const wrong = [{ pattern: /Apply the change\? \[y\/N\]/, answer: 'no' }];
    const { error } = await failure(
      runWrapped({
        program: `${FIXTURES}confirm-twice.py`,
        confirmations: wrong,
        approved: true,
        deadline: soon(),
      }),
    );
    expect(error.code).toBe('PROMPT_UNEXPECTED');
    expect(error.message).toContain('second time');
    expect(error.details?.stdout_tail).toContain('got no');
  });
});
