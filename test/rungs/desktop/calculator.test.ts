import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DesktopRuntime, desktopRuntime, success } from './harness.js';

describe('GNOME Calculator through its accessibility tree', () => {
  let desktop: DesktopRuntime;
  beforeAll(async () => {
    desktop = desktopRuntime();
    success(await desktop.runtime.invoke('start_program', { program: 'gnome-calculator' }));
  });
  afterAll(async () => {
    const { left } = await desktop.close();
    expect(left).toEqual([]);
  });

  it('observes the window as named controls with a richness line', async () => {
    const envelope = success(await desktop.runtime.invoke('observe_window', { program: 'gnome-calculator' }));
    const text = envelope.fields.text as string;
    console.log(text);
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
    console.log(JSON.stringify(envelope.fields, null, 1));
    expect(envelope.ok).toBe(true);
  });
});
