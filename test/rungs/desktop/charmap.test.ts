import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DesktopRuntime, desktopRuntime, readThreeWays, success } from './harness.js';

describe('GNOME Character Map through its accessibility tree', () => {
  let desktop: DesktopRuntime;
  beforeAll(async () => {
    desktop = desktopRuntime();
    success(await desktop.runtime.invoke('start_program', { program: 'gucharmap' }));
  });
  afterAll(async () => {
    const { left } = await desktop.close();
    expect(left).toEqual([]);
  });

  it("reads the window in GetChildren's order although GTK 3's object cache numbers children otherwise", async () => {
    const { everyNode, first, second, calls } = await readThreeWays(desktop, 'gucharmap');
    expect(first).toEqual(everyNode);
    expect(second).toEqual(everyNode);
    expect(calls[2]).toBeLessThan(calls[0]!);
  });

  it('finds a character by name and copies it to the clipboard', async () => {
    const observed = success(await desktop.runtime.invoke('observe_window', { program: 'gucharmap' }));
    expect(observed.fields.text).toMatch(/find = ctrl\+f/);
    success(
      await desktop.runtime.invoke('act_window', {
        program: 'gucharmap',
        actions: [{ op: 'shortcut', name: 'find' }],
      }),
    );
    const dialog = success(
      await desktop.runtime.invoke('observe_window', { program: 'gucharmap', title: 'Find' }),
    );
    expect(dialog.fields.text).toMatch(/text "Search"/);
    const found = success(
      await desktop.runtime.invoke('act_window', {
        program: 'gucharmap',
        title: 'Find',
        actions: [
          { op: 'set_value', target: { name: 'Search', role: 'text' }, value: 'SNOWMAN' },
          { op: 'toggle', target: { name: 'Match whole word' }, checked: true },
          { op: 'invoke', target: { name: 'Next' } },
          { op: 'invoke', target: { name: 'Close' } },
        ],
      }),
    );
    expect(found.ok).toBe(true);
    const main = success(
      await desktop.runtime.invoke('observe_window', { program: 'gucharmap', title: 'Character Map' }),
    );
    expect(main.fields.text).toContain('U+2603 SNOWMAN');
    const copied = success(
      await desktop.runtime.invoke('act_window', {
        program: 'gucharmap',
        title: 'Character Map',
        actions: [{ op: 'shortcut', name: 'copy character' }],
      }),
    );
    expect(copied.fields.executed).toBe(1);
    const clipboard = success(await desktop.runtime.invoke('read_clipboard', {}));
    expect(clipboard.fields.text).toBe('☃');
  });
});
