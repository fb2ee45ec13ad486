/**
 * Property-based fuzzing of every registered tool's input: each bad input gets a stable error
 * code, no stack trace, no internal path, no secret, within a bounded time, and changes nothing.
 * `npm test` runs a fixed seed and a few runs per tool; LIFT_FUZZ_RUNS=500 (and LIFT_FUZZ_SEED)
 * run more.
 */
import { resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { gateOf } from '../../src/contract/define-tool.js';
import type { Envelope } from '../../src/contract/envelope.js';
import { ERROR_CODES } from '../../src/contract/errors.js';
import { validateInput } from '../../src/runtime/bad-input.js';
import { applyMutation, mutation, PATH_KEY } from './fuzz/bad-inputs.js';
import { openWorld } from './fuzz/world.js';
import { SECRET_CANARY } from './support.js';

const RUNS = Number(process.env.LIFT_FUZZ_RUNS ?? 12);
const SEED = Number(process.env.LIFT_FUZZ_SEED ?? 1616);
const CALL_BOUND_MS = 15_000;
const REPO = resolve(import.meta.dirname, '..', '..');
const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

const world = await openWorld();
afterAll(() => world.close());

function isValid(name: string, input: unknown): boolean {
  try {
    validateInput(world.runtime.registry.get(name)!, input);
    return true;
  } catch {
    return false;
  }
}

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the call did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** What an answer to a bad input may never carry. */
function expectClean(envelope: Envelope, input: unknown): void {
  if (!('error' in envelope)) throw new Error(`not refused: ${JSON.stringify(envelope).slice(0, 500)}`);
  const { code } = envelope.error;
  expect(Object.keys(ERROR_CODES)).toContain(code);
  expect(code).not.toBe('INTERNAL_ERROR');
  const text = JSON.stringify(envelope);
  expect(text).not.toMatch(/\\n\s+at [^\\]+:\d+:\d+/);
  expect(text).not.toContain('node:internal');
  expect(text).not.toContain(SECRET_CANARY);
  if (!JSON.stringify(input ?? null).includes(REPO)) expect(text).not.toContain(REPO);
  expect(text).not.toContain('node_modules');
  // Lift's home may be named only as its output folder (a root the message lists).
  for (const at of text.split(world.home).slice(1)) expect(at.startsWith('/out')).toBe(true);
}

const tools = world.runtime.registry.list().map((tool) => tool.name);

describe('every registered tool refuses bad input cleanly', () => {
  it('fuzzes built-in tools, fixture tools, a registered capability and api-imported tools', () => {
    for (const kind of ['convert_document', 'note_read', 'member_lookup_fuzz', 'widget_get'])
      expect(tools, kind).toContain(kind);
  });

  it.each(tools)('%s', async (name) => {
    const tool = world.runtime.registry.get(name)!;
    const mayRunValid =
      !world.fixtureNames.has(name) &&
      ['none', 'log'].includes(gateOf(tool)) &&
      tool.effect.class !== 'irreversible';
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(mutation, async (change) => {
        const { input, field } = applyMutation(tool.example, change);
        const pathField = field !== undefined && PATH_KEY.test(String(field.at(-1)));
        // A valid input runs the tool for real; only a path field's value is still this test's business.
        if (isValid(name, input) && !(mayRunValid && pathField)) return;
        const before = world.snapshot();
        const envelope = await within(CALL_BOUND_MS, world.runtime.invoke(name, input));
        expectClean(envelope, input);
        expect(world.snapshot()).toBe(before);
        refused++;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(refused, 'calls made (the rest were valid inputs, not run)').toBeGreaterThan(RUNS / 3);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
