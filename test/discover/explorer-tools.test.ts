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

describe('the act tool and typing as a person', () => {
  it('tells the model of templates, clear:false and caret keys with an example of each, and takes them', () => {
    const { description, input } = EXPLORER_TOOLS.act;
    expect(description).toContain('"template":"== {{title}} ==');
    expect(description).toContain('"clear":false');
    expect(description).toContain('"key":"Control+End"');
    expect(description).toContain('"by":"cell"');
    const target = { ref: 'e7' };
    const actions = [
      { op: 'press', target, key: 'Control+End' },
      { op: 'type', target, value: { template: '\n{{line}}' }, clear: false },
      { op: 'fill', target, value: { template: '== {{title}} ==\n\n{{body}}' } },
    ];
    expect(input.safeParse({ actions }).success).toBe(true);
    const schema = JSON.stringify(explorerToolJsonSchema('act'));
    expect(schema).toContain('"clear"');
    expect(schema).toContain('"template"');
  });
});

describe('the complete tool and outputs read from the resulting page', () => {
  const checkpoint = { target: { frame: [], locator: { by: 'label', label: 'Subject' } }, input: 'subject' };
  const complete = (from: unknown) =>
    EXPLORER_TOOLS.complete.input.safeParse({ outputs: ['postId'], checkpoint, from: { postId: from } });

  it('accepts a URL, a message pattern with one group and a link, and tells the model of each', () => {
    expect(complete({ url: { param: 'id' } }).success).toBe(true);
    expect(complete({ message: { pattern: 'Post (\\d+) created' } }).success).toBe(true);
    expect(complete({ link: { name: 'View post' } }).success).toBe(true);
    expect(complete({ link: { name: 'View post', param: 'p' } }).success).toBe(true);
    const schema = JSON.stringify(explorerToolJsonSchema('complete'));
    expect(schema).toContain('"message"');
    expect(schema).toContain('"link"');
    expect(schema).toContain('exactly one capture group');
  });

  it('refuses a message pattern without one capture group before anything is compiled', () => {
    const refused = complete({ message: { pattern: 'Post \\d+ created' } });
    expect(refused.success).toBe(false);
    expect(JSON.stringify(refused.error?.issues)).toContain('capture groups');
  });
});
