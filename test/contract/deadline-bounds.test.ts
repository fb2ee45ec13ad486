import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import { MAX_DEADLINE_MS } from '../../src/contract/duration.js';

function toolWithDeadline(deadlineMs: number) {
  return defineTool({
    name: 'count_stock',
    description: 'Counts stock.',
    rung: 'cli',
    input: z.strictObject({}),
    output: z.object({ count: z.number() }),
    effect: { class: 'read' },
    timeout: { deadlineMs },
    example: {},
    run: async () => ({ fields: { count: 1 }, summary: 'one' }),
  });
}

describe("a tool contract's deadline", () => {
  it('up to a day is accepted', () => {
    expect(toolWithDeadline(MAX_DEADLINE_MS).timeout.deadlineMs).toBe(86_400_000);
  });

  it('beyond what a timer can hold, or not a number, is refused with the allowed range', () => {
    for (const deadlineMs of [1e12, Number.POSITIVE_INFINITY, Number.NaN, 0, -5]) {
      expect(() => toolWithDeadline(deadlineMs)).toThrow(/deadline from 1 to 86400000 ms/);
    }
  });
});
