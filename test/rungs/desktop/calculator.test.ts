import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDesktopSkillTools } from '../../../src/replay/desktop-skills.js';
import { isModelEvent } from '../../../src/store/run-event.js';
import { type DesktopRuntime, desktopRuntime, success } from './harness.js';

describe('GNOME Calculator through its accessibility tree', () => {
  let desktop: DesktopRuntime;
  beforeAll(async () => {
    desktop = desktopRuntime();
    addDesktopSkillTools(desktop.runtime);
    success(await desktop.runtime.invoke('start_program', { program: 'gnome-calculator' }));
  });
  afterAll(async () => {
    const { left } = await desktop.close();
    expect(left).toEqual([]);
  });

  it('observes the window as named controls with a richness line', async () => {
    const envelope = success(await desktop.runtime.invoke('observe_window', { program: 'gnome-calculator' }));
    const text = envelope.fields.text as string;
    expect(text).toMatch(
      /^APP: gnome-calculator \(pid \d+\) \| window "Calculator" \| rich: \d+ interactable of \d+ elements/,
    );
    expect(text).toMatch(/push button "7" \{invoke\}/);
    expect(text).toContain('SHORTCUTS');
  });

  it('computes 25*4 by typing the expression and reads 100 back from the display', async () => {
    const envelope = success(
      await desktop.runtime.invoke('act_window', {
        program: 'gnome-calculator',
        actions: [
          { op: 'type', text: '25*4' },
          { op: 'key', keys: ['enter'], expect: { text_contains: '100', target: { id: 'GtkSourceView' } } },
        ],
      }),
    );
    expect(envelope.ok).toBe(true);
  });

  it('learns "calculate {a} + {b}" from one run and replays it on new numbers with no model', async () => {
    const display = { id: 'GtkSourceView' };
    success(
      await desktop.runtime.invoke('act_window', {
        program: 'gnome-calculator',
        actions: [
          { op: 'key', keys: 'escape' },
          { op: 'type', text: '12+30' },
          { op: 'key', keys: ['enter'], expect: { text_contains: '42', target: display } },
        ],
      }),
    );
    const learned = success(
      await desktop.runtime.invoke('learn_skill', {
        name: 'calculate_sum',
        intent: 'calculate {a} + {b}',
        values: { a: 12, b: 30 },
      }),
    );
    expect(learned.fields.inputs).toEqual(['a: number', 'b: number']);
    for (const [a, b] of [
      [25, 4],
      [7, 8],
      [1000, 234],
    ] as const) {
      const envelope = success(await desktop.runtime.invoke('calculate_sum', { a, b }));
      expect(envelope.fields.result).toBe(String(a + b));
      const events = await desktop.runtime.store.runs.events(envelope.run_id);
      expect(events.filter(isModelEvent)).toEqual([]);
    }
    const words = await desktop.runtime.invoke('calculate_sum', { a: 'twelve', b: 'thirty' });
    expect('error' in words && words.error.code).toBe('BAD_INPUT');
  });
});
