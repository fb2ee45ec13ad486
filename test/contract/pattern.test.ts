import { describe, expect, it } from 'vitest';
import { isLiftError } from '../../src/contract/errors.js';
import { linearPattern, MATCH_TAIL_CHARS } from '../../src/contract/pattern.js';

function refusal(source: string): { code: string; message: string; hint: string } {
  try {
    linearPattern(source, { what: '--confirm pattern' });
  } catch (error) {
    if (isLiftError(error)) return { code: error.code, message: error.message, hint: error.hint ?? '' };
    throw error;
  }
  throw new Error(`${source} was accepted`);
}

describe('a pattern from outside Lift', () => {
  it("answers the catastrophic (a+)+$ on the issue's 40 a's at once, matched or not", () => {
    const pattern = linearPattern('(a+)+$');
    const started = performance.now();
    expect(pattern.test(`${'a'.repeat(40)}!`)).toBe(false);
    expect(pattern.test('a'.repeat(40))).toBe(true);
    expect(pattern.test(`${'a'.repeat(100_000)}!`)).toBe(false);
    // A backtracking engine takes hours here; RE2 takes milliseconds. The bound only says "not stuck".
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('is matched against the end of long output only, so its cost has a bound', () => {
    const pattern = linearPattern('^START');
    expect(pattern.test(`START${'x'.repeat(MATCH_TAIL_CHARS)}`)).toBe(false);
    expect(linearPattern('^START', { scope: 'whole' }).test(`START${'x'.repeat(MATCH_TAIL_CHARS)}`)).toBe(
      true,
    );
    expect(linearPattern('Delete \\d+ rows\\?').test('Delete 3 rows? [y/N]')).toBe(true);
  });

  it('ignores case when asked', () => {
    expect(linearPattern('restart').test('Restart the worker')).toBe(false);
    expect(linearPattern('restart', { ignoreCase: true }).test('Restart the worker')).toBe(true);
  });

  it('that needs backtracking, or is oversized, is BAD_INPUT naming the engine and what to do', () => {
    for (const source of ['(?=a)a', '(a)\\1', '(?<!x)y', '[unclosed']) {
      const error = refusal(source);
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toContain('--confirm pattern');
      expect(error.hint).toContain('linear-time engine');
    }
    expect(refusal('a'.repeat(1_001)).message).toContain('at most 1000');
    expect(refusal('[a-z]{1000}[0-9]{1000}[A-Z]{1000}').message).toContain('too large');
  });
});
