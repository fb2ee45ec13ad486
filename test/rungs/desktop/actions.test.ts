import { describe, expect, it } from 'vitest';
import { actWindow } from '../../../src/rungs/desktop/act-tool.js';
import { DesktopActionsSchema } from '../../../src/rungs/desktop/actions.js';
import { toolInputSchema } from '../../../src/serve/to-json-schema.js';

/** What a failed parse says, one `path: message` per issue. */
function problems(actions: unknown): string[] {
  const parsed = DesktopActionsSchema.safeParse(actions);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('act_window actions as a caller writes them', () => {
  it('lists one flat action, every op named with the fields it takes, no variant written out six times', () => {
    const actions = toolInputSchema(actWindow).properties.actions as {
      items: { oneOf?: unknown; properties: Record<string, { description?: string }> };
    };
    expect(actions.items.oneOf).toBeUndefined();
    expect(Object.keys(actions.items.properties).sort()).toEqual(
      ['checked', 'expect', 'keys', 'name', 'op', 'target', 'text', 'value'].sort(),
    );
    const ops = actions.items.properties.op?.description ?? '';
    for (const op of ['invoke', 'toggle', 'set_value', 'type', 'key', 'shortcut'])
      expect(ops).toContain(`${op}:`);
  });

  it('parses into the exact action each op is, keys joined', () => {
    const parsed = DesktopActionsSchema.parse([
      { op: 'key', keys: ['ctrl', 'c'] },
      { op: 'invoke', target: { ref: 'e4' }, expect: { text_contains: '7', target: { name: 'Result' } } },
      { op: 'toggle', target: { name: 'Bold', role: 'check box' }, checked: true },
    ]);
    expect(parsed).toEqual([
      { op: 'key', keys: 'ctrl+c' },
      { op: 'invoke', target: { ref: 'e4' }, expect: { text_contains: '7', target: { name: 'Result' } } },
      { op: 'toggle', target: { name: 'Bold', role: 'check box' }, checked: true },
    ]);
  });

  it('refuses a field its op does not take, a field it needs, and a control named two ways, each by its path', () => {
    expect(problems([{ op: 'type', text: '25*4', checked: true }])).toEqual([
      '0: Unrecognized key: "checked"',
    ]);
    expect(problems([{ op: 'set_value', target: { name: 'Amount' } }])[0]).toMatch(/^0\.value: /);
    expect(problems([{ op: 'invoke', target: { ref: 'e1', name: 'Copy' } }])).toEqual([
      '0.target: A control is {"ref": "e12"} alone, or named by any of "name", "role", "id", "nth".',
    ]);
    expect(problems([{ op: 'key', keys: 'hyper+q' }])[0]).toMatch(/^0\.keys: /);
    expect(problems([{ op: 'press', target: { name: 'x' } }])[0]).toMatch(/^0\.op: /);
  });
});
