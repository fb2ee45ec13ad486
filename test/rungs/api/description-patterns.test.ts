import { describe, expect, it } from 'vitest';
import { jsonSchemaOf } from '../../../src/contract/json-schema.js';
import { toZod } from '../../../src/rungs/api/schema-to-zod.js';

describe("an API description's string pattern", () => {
  it('that would backtrack catastrophically checks a value at once (it runs on RE2)', () => {
    const schema = toZod({ type: 'string', maxLength: 2_000, pattern: '^(a+)+$' }, { strict: true });
    const started = performance.now();
    // A backtracking engine spends seconds on 26 a's and a '!', and doubles with each a.
    expect(schema.safeParse(`${'a'.repeat(26)}!`).success).toBe(false);
    expect(schema.safeParse('a'.repeat(26)).success).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(jsonSchemaOf(schema)).toMatchObject({ type: 'string', pattern: '^(a+)+$' });
  });

  it('that RE2 cannot run is left to the API, still shown in the schema, and the import does not fail', () => {
    const schema = toZod({ type: 'string', pattern: '^(?!admin).+$' }, { strict: true });
    expect(schema.safeParse('admin').success).toBe(true);
    expect(jsonSchemaOf(schema)).toMatchObject({ pattern: '^(?!admin).+$' });
    const anchored = toZod({ type: 'string', pattern: '^T-\\d{6}$' }, { strict: true });
    expect(anchored.safeParse('T-000101').success).toBe(true);
    expect(anchored.safeParse('T-1').success).toBe(false);
  });
});
