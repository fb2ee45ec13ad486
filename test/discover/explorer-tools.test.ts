import { describe, expect, it } from 'vitest';
import {
  EXPLORER_TOOL_NAMES,
  EXPLORER_TOOLS,
  explorerAnnotations,
  explorerToolJsonSchema,
} from '../../src/discover/explorer-tools.js';

describe('the four explorer tools', () => {
  it('are each one declaration whose example is a correct call', () => {
    expect(Object.keys(EXPLORER_TOOLS).sort()).toEqual([...EXPLORER_TOOL_NAMES].sort());
    for (const name of EXPLORER_TOOL_NAMES) {
      const tool = EXPLORER_TOOLS[name];
      expect(tool.name).toBe(name);
      expect(tool.description.length).toBeGreaterThan(40);
      expect(tool.input.safeParse(tool.example).success, name).toBe(true);
      expect(explorerToolJsonSchema(name)).toMatchObject({ type: 'object', additionalProperties: false });
    }
  });

  it('derive their MCP annotations from the declared effect', () => {
    expect(explorerAnnotations(EXPLORER_TOOLS.observe)).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
    expect(explorerAnnotations(EXPLORER_TOOLS.act)).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: true,
    });
    expect(explorerAnnotations(EXPLORER_TOOLS.complete)).toMatchObject({
      readOnlyHint: false,
      idempotentHint: true,
    });
    for (const name of EXPLORER_TOOL_NAMES)
      expect(explorerAnnotations(EXPLORER_TOOLS[name]).title).toBeTruthy();
  });
});
