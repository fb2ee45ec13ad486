import { describe, expect, it } from 'vitest';
import { spec } from '../../src/cli/commands/session.js';
import { ActArgsSchema } from '../../src/discover/tools/act.js';
import { CompleteArgsSchema } from '../../src/discover/tools/complete.js';

/** The JSON argument of a documented command line: the text between its single quotes. */
function jsonOf(example: string): unknown {
  const quoted = /'(.*)'$/.exec(example)?.[1];
  expect(quoted, example).toBeDefined();
  return JSON.parse(quoted!);
}

describe('lift session --help examples', () => {
  it('show act calls the act tool accepts', () => {
    const examples = spec.subcommands?.act?.examples ?? [];
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const parsed = ActArgsSchema.safeParse({ actions: [jsonOf(example)] });
      expect(parsed.success, `${example}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it('show a complete call the complete tool accepts', () => {
    const examples = spec.subcommands?.complete?.examples ?? [];
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const parsed = CompleteArgsSchema.safeParse(jsonOf(example));
      expect(parsed.success, `${example}: ${parsed.error?.message}`).toBe(true);
    }
  });
});
