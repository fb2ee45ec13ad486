import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWrapped } from '../../../src/rungs/cli/run-wrapped.js';
import { lift } from '../../support/cli.js';
import { tempDir } from '../../support/temp.js';
import { FIXTURES, failure, liveInGroup, startupMs } from './helpers.js';

const temp = tempDir('lift-event-loop-');
afterAll(() => temp.remove());

const NODE = process.execPath;
const PYTHON = '/usr/bin/python3';
const soon = (ms = 20_000) => Date.now() + ms;

/**
 * Prompts that end in neither a colon nor a question mark ("Pick a warehouse "), asked by
 * programs that wait for the answer in different ways. Each must end in PROMPT_UNEXPECTED
 * well before its 20 s deadline, with the prompt as the question.
 */
const ASKERS: Array<{ name: string; program: string; args: string[] }> = [
  { name: "Node's readline (epoll)", program: NODE, args: [`${FIXTURES}readline-prompt.mjs`] },
  { name: 'Python asyncio reading stdin (epoll)', program: PYTHON, args: [`${FIXTURES}asyncio-prompt.py`] },
  {
    name: 'Python asyncio with a worker thread reading stdin',
    program: PYTHON,
    args: [`${FIXTURES}asyncio-prompt.py`, '--thread'],
  },
  { name: 'a blocking read (sh read)', program: 'sh', args: [`${FIXTURES}blocking-prompt.sh`] },
];

describe('a prompt without a question mark', () => {
  for (const asker of ASKERS) {
    it(`asked through ${asker.name} is PROMPT_UNEXPECTED, not a TIMEOUT`, async () => {
      const startup = await startupMs(asker.program, asker.program === 'sh' ? ['-c', ':'] : ['-c', '0']);
      const { error, ms } = await failure(
        runWrapped({ program: asker.program, args: asker.args, deadline: soon() }),
      );
      expect(error.code).toBe('PROMPT_UNEXPECTED');
      expect(error.details?.question).toBe('Pick a warehouse');
      // The partial line must stand still for half a second first; the bound leaves room for a busy machine.
      expect(ms).toBeLessThan(3_000 + startup);
      expect(liveInGroup(error.details?.pid as number)).toEqual([]);
    });
  }

  it('through lift exec, a Node readline prompt is PROMPT_UNEXPECTED with the question in the hint', async () => {
    const { code, stdout } = await lift(
      ['exec', '--json', '--deadline', '20', '--', NODE, `${FIXTURES}readline-prompt.mjs`],
      { cwd: temp.path, env: { LIFT_HOME: join(temp.path, '.lift') }, timeoutMs: 30_000 },
    );
    const envelope = JSON.parse(stdout);
    expect(envelope.error.code).toBe('PROMPT_UNEXPECTED');
    expect(envelope.error.hint).toContain('Pick a warehouse');
    expect(envelope.error.details.duration_ms).toBeLessThan(10_000);
    expect(code).toBe(1);
  });
});

describe('a program that works silently under a partial line, never reading its input', () => {
  const WORKERS: Array<{ name: string; program: string; args: string[] }> = [
    { name: 'Node, waiting on a timer', program: NODE, args: [`${FIXTURES}compute-silently.mjs`, '1500'] },
    {
      name: 'Python, computing then in asyncio',
      program: PYTHON,
      args: [`${FIXTURES}compute-silently.py`, '1.5'],
    },
  ];
  for (const worker of WORKERS) {
    it(`${worker.name}: is not taken for a question and finishes`, async () => {
      const result = await runWrapped({ program: worker.program, args: worker.args, deadline: soon() });
      expect(result.exitCode).toBe(0);
      expect(result.stdout.text).toBe('Counting stock done: 42 items\n');
    });
  }
});
