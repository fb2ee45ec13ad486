import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/builtin.js';
import { inputSchemaOf } from '../../src/contract/json-schema.js';
import { REQUEST_ID_PATTERN, RequestIdSchema } from '../../src/contract/request-id.js';
import { widgetTools } from '../rungs/api/widgets.js';
import { tools as foundationTools } from '../support/foundation-tools.js';

/** Ids the eight earlier rules accepted and that programs or ledgers hold today. */
const STORED_IDS = [
  'req-2f9c1a7e',
  'inv-2026-0042',
  'hours-2026-11-w48',
  'push-5b0c7d11',
  'restart-7f3a9e21',
  'close-T-000101-1',
  'demo-note-1',
  'req-1',
  'cli-kill',
  'a1b2',
  'order.2026:11',
  'X'.repeat(100),
];

describe('the one request id rule', () => {
  it('accepts the ids earlier rules accepted and tools and tests use', () => {
    for (const id of STORED_IDS) expect(RequestIdSchema.safeParse(id).success, id).toBe(true);
  });

  it('refuses ids that would break where Lift puts them: spaces, quotes, slashes, a leading dash, too short or long', () => {
    for (const id of [
      'abc',
      'has space',
      'quote"d',
      'a/b/c/d',
      '-rf-everything',
      '.hidden',
      'X'.repeat(101),
      'ünï-code',
    ])
      expect(RequestIdSchema.safeParse(id).success, id).toBe(false);
  });

  it('is the rule of every tool that takes a request_id: built-in, API rung and test tools', async () => {
    const tools = [...(await builtinTools()), ...widgetTools('http://127.0.0.1:1'), ...foundationTools];
    const withId = tools.filter((tool) => inputSchemaOf(tool).properties?.request_id);
    expect(withId.length).toBeGreaterThan(10);
    for (const tool of withId) {
      const schema = inputSchemaOf(tool).properties?.request_id as { pattern?: string };
      expect(schema.pattern, tool.name).toBe(REQUEST_ID_PATTERN.source);
      if (tool.example && 'request_id' in tool.example)
        expect(REQUEST_ID_PATTERN.test(String(tool.example.request_id)), tool.name).toBe(true);
    }
  });
});
