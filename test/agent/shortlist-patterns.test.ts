import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Shortlist } from '../../src/agent/shortlist.js';
import { BUILTIN_GROUPS } from '../../src/agent/shortlist-config.js';
import { type AnyTool, defineTool } from '../../src/contract/define-tool.js';

function tool(name: string, group: string): AnyTool {
  return defineTool({
    name,
    description: `${name.replaceAll('_', ' ')}.`,
    group,
    rung: 'api',
    input: z.strictObject({ value: z.string().max(100) }),
    output: z.strictObject({ done: z.boolean() }),
    effect: { class: 'read' },
    timeout: { deadlineMs: 1000 },
    example: { value: 'x' },
    run: async () => ({ fields: { done: true }, summary: 'done' }),
  });
}

describe("an operator's shortlist signal", () => {
  it('that would backtrack catastrophically scores a request at once (it runs on RE2)', () => {
    const shortlist = new Shortlist([tool('count_stock', 'stock')], {
      groups: { stock: { signals: [{ pattern: '(a+)+$', weight: 10 }] } },
    });
    const started = performance.now();
    // A backtracking engine spends seconds on 25 a's and a '!', and doubles with each a.
    expect(shortlist.score(`${'a'.repeat(25)}!`)).toEqual([]);
    expect(shortlist.score('a'.repeat(25))[0]?.group).toBe('stock');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('that needs look-around is refused at load, naming the group and the engine', () => {
    expect(
      () =>
        new Shortlist([tool('count_stock', 'stock')], {
          groups: { stock: { signals: [{ pattern: 'stock(?! count)', weight: 10 }] } },
        }),
    ).toThrow(/group 'stock' has an invalid pattern .*linear-time engine/);
  });

  it('built in still compile, every one of them', () => {
    const tools = Object.keys(BUILTIN_GROUPS).map((group, index) => tool(`tool_number${index}`, group));
    expect(() => new Shortlist(tools)).not.toThrow();
  });
});
