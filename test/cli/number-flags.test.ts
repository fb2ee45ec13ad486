import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const folder = tempDir('lift-number-flags-');
const policy = join(folder.path, 'policy.json');
writeFileSync(policy, JSON.stringify({ origins: ['http://127.0.0.1:9'] }));
afterAll(() => folder.remove());

const SESSION = ['session', 'start', '--policy', policy, '--url', 'http://127.0.0.1:9/', '--task', 'look up'];

/** Each flag that takes a duration or a count, given a value out of its range, and what it must say. */
const CASES: Array<{ args: string[]; says: string }> = [
  {
    args: ['run', 'count stock', '--hedge-s', '1e9'],
    says: "--hedge-s takes seconds from 0 to 600, not '1e9'",
  },
  {
    args: ['run', 'count stock', '--max-turns', '1e9'],
    says: '--max-turns takes a whole number of model calls from 1 to 1000',
  },
  {
    args: ['run', 'count stock', '--max-steps', '2.5'],
    says: '--max-steps takes a whole number of steps from 1 to 10000',
  },
  {
    args: ['run', 'count stock', '--max-seconds', '1e9'],
    says: '--max-seconds takes seconds, more than 0 and at most 86400',
  },
  { args: ['runs', '--limit', 'abc'], says: '--limit takes a whole number of runs from 1 to 10000' },
  { args: ['ledger', '--limit', '0'], says: '--limit takes a whole number of tasks from 1 to 10000' },
  {
    args: ['ladder', 'schedule', 'close_ticket', '--every', '99999999999d'],
    says: '--every takes 1m to 366d',
  },
  {
    args: [...SESSION, '--input', 'sku=1', '--output', 'qty:number', '--idle-s', 'abc'],
    says: '--idle-s takes seconds from 1 to 86400',
  },
];

describe('a duration or a count out of its range on the command line', () => {
  for (const { args, says } of CASES) {
    it(`lift ${args[0]} ${args.slice(-2).join(' ')}: BAD_INPUT naming the range`, async () => {
      const { code, stderr } = await lift(args, {
        cwd: folder.path,
        env: { LIFT_HOME: join(folder.path, '.lift'), LIFT_MODEL: 'openai:gpt-test' },
        timeoutMs: 30_000,
      });
      expect(code).toBe(2);
      expect(stderr).toContain(`BAD_INPUT: ${says}`);
      expect(stderr).not.toContain('TimeoutOverflowWarning');
    });
  }
});
