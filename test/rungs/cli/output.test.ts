import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runWrapped } from '../../../src/rungs/cli/run-wrapped.js';
import { transpileClosure } from '../../fixtures/cli/transpile.js';
import { FIXTURES, failure } from './helpers.js';

const soon = () => Date.now() + 20_000;
const temp = mkdtempSync(join(tmpdir(), 'lift-output-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('output', () => {
  it('1 GB of output is capped (head, tail, cut count) and the wrapper stays under 100 MB', async () => {
    // Measured in a child process on plain node, so the test runner's own memory is not counted.
    const script = transpileClosure(join(FIXTURES, 'wrap-large-output.ts'), temp);
    const { stdout } = await promisify(execFile)('node', [script, String(1024 ** 3)], { timeout: 90_000 });
    const report = JSON.parse(stdout) as {
      bytes: number;
      cut: number;
      kept: number;
      truncated: boolean;
      peak_mb: number;
    };
    expect(report.bytes).toBe(1024 ** 3);
    expect(report.truncated).toBe(true);
    expect(report.cut).toBe(1024 ** 3 - 64 * 1024);
    expect(report.kept).toBeLessThan(70_000);
    expect(report.peak_mb).toBeLessThan(100);
  }, 90_000);

  it('keeps the head and the tail and says how much was cut between them', async () => {
    const result = await runWrapped({
      program: 'python3',
      args: ['-c', 'print("FIRST"); print("x" * 100000); print("LAST")'],
      cap: 1_000,
      deadline: soon(),
    });
    expect(result.stdout.truncated).toBe(true);
    expect(result.stdout.text.startsWith('FIRST')).toBe(true);
    expect(result.stdout.text.trimEnd().endsWith('LAST')).toBe(true);
    expect(result.stdout.text).toContain(`[${result.stdout.cutBytes} bytes cut]`);
    expect(result.stdout.cutBytes).toBe(100_012 - 1_000);
  });

  it('the program sees pagers as cat, editors and askpass that fail, no terminal, and none of our variables', async () => {
    const result = await runWrapped({
      program: 'sh',
      args: ['-c', 'env; tty || true'],
      env: { INVENTORY_DATA: '/tmp/x' },
      deadline: soon(),
    });
    const env = result.stdout.text;
    for (const line of [
      'PAGER=cat',
      'GIT_PAGER=cat',
      'GIT_TERMINAL_PROMPT=0',
      'EDITOR=false',
      'SSH_ASKPASS_REQUIRE=never',
    ]) {
      expect(env).toContain(line);
    }
    expect(env).toContain('INVENTORY_DATA=/tmp/x');
    expect(env).not.toContain('VITEST');
    expect(env).toContain('not a tty');
  });
});

describe('exit status', () => {
  const exitCodes = {
    3: { code: 'NOT_FOUND' as const, message: 'No such item.', hint: 'List the items first.' },
    1: 'ok' as const,
  };

  it('a listed status becomes its stable error code', async () => {
    const { error } = await failure(
      runWrapped({ program: 'sh', args: ['-c', 'exit 3'], exitCodes, deadline: soon() }),
    );
    expect(error.code).toBe('NOT_FOUND');
    expect(error.hint).toBe('List the items first.');
    expect(error.details?.exit_code).toBe(3);
  });

  it('a status the contract calls ok is success', async () => {
    const result = await runWrapped({
      program: 'sh',
      args: ['-c', 'echo partial; exit 1'],
      exitCodes,
      deadline: soon(),
    });
    expect(result.exitCode).toBe(1);
  });

  it('an unlisted status is PROGRAM_FAILED with the tail of the error stream as the hint', async () => {
    const { error } = await failure(
      runWrapped({
        program: 'sh',
        args: [
          '-c',
          'i=0; while [ $i -lt 200 ]; do echo "noise $i" >&2; i=$((i+1)); done; echo "disk quota exceeded" >&2; exit 7',
        ],
        exitCodes,
        deadline: soon(),
      }),
    );
    expect(error.code).toBe('PROGRAM_FAILED');
    expect(error.message).toContain('status 7');
    expect(error.message).toContain('disk quota exceeded');
    expect(error.hint).toContain('disk quota exceeded');
    expect(error.hint?.length).toBeLessThan(700);
  });

  it('an error-stream pattern wins over the status, for programs that use one status for everything', async () => {
    const { error } = await failure(
      runWrapped({
        program: 'sh',
        args: ['-c', 'echo "fatal: could not read Username for x" >&2; exit 128'],
        errorPatterns: [
          { pattern: /could not read Username/, code: 'AUTH_REQUIRED', message: 'The remote wants a login.' },
        ],
        deadline: soon(),
      }),
    );
    expect(error.code).toBe('AUTH_REQUIRED');
    expect(error.outcome).toBe('not_started');
  });

  it('a program that is not installed is PROGRAM_FAILED, not_started', async () => {
    const { error } = await failure(runWrapped({ program: 'lift-no-such-program', deadline: soon() }));
    expect(error.code).toBe('PROGRAM_FAILED');
    expect(error.outcome).toBe('not_started');
  });

  it('an argument or variable holding a NUL byte is BAD_INPUT, not_started, naming which and never the value', async () => {
    const calls = [
      { args: ['-c', 'select 1\0; drop table x'], which: 'argument 2' },
      { args: ['-c', 'true'], env: { PGOPTIONS: 'a\0b' }, which: 'the environment variable PGOPTIONS' },
    ];
    for (const { which, ...call } of calls) {
      const { error } = await failure(runWrapped({ program: 'sh', deadline: soon(), ...call }));
      expect(error.code, which).toBe('BAD_INPUT');
      expect(error.outcome).toBe('not_started');
      expect(error.message).toContain(which);
      expect(error.message).not.toContain('drop table');
    }
  });
});
