import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Shortlist } from '../../../src/agent/shortlist.js';
import { addDesktopSkillTools } from '../../../src/replay/desktop-skills.js';
import { isModelEvent } from '../../../src/store/run-event.js';
import { type DesktopRuntime, desktopRuntime, readThreeWays, success } from './harness.js';

describe('GNOME Calculator through its accessibility tree', () => {
  let desktop: DesktopRuntime;
  let pid: number;
  beforeAll(async () => {
    desktop = desktopRuntime();
    addDesktopSkillTools(desktop.runtime);
    const started = success(await desktop.runtime.invoke('start_program', { program: 'gnome-calculator' }));
    pid = started.fields.pid as number;
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

  it('runs the program with GTK 4 drawing through cairo, since Xvfb has no GPU for its GL renderer', () => {
    const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    expect(environment).toContain('GSK_RENDERER=cairo');
  });

  it("reads the window from GTK 4's object cache: the same nodes as asking each, in a call plus one per text", async () => {
    const { everyNode, first, second, calls } = await readThreeWays(desktop, 'gnome-calculator');
    expect(first).toEqual(everyNode);
    expect(second).toEqual(everyNode);
    const texts = everyNode.filter(
      (node) => node.interfaces.includes('Text') || node.interfaces.includes('Value'),
    );
    expect(calls[0]).toBeGreaterThan(4 * everyNode.length);
    expect(calls[2]).toBeLessThanOrEqual(texts.length + 1);
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

  it("does not take a key's label for what the window shows: 2+2 expecting 5 fails, expecting 4 passes", async () => {
    const wrong = await desktop.runtime.invoke('act_window', {
      program: 'gnome-calculator',
      actions: [
        { op: 'key', keys: ['escape'] },
        { op: 'type', text: '2+2' },
        { op: 'key', keys: ['enter'], expect: { text_contains: '5' } },
      ],
    });
    const steps = (wrong as { fields?: { steps?: Array<{ code?: string }> } }).fields?.steps ?? [];
    expect(wrong.ok, JSON.stringify(wrong)).toBe(false);
    expect(steps[2]?.code).toBe('UNEXPECTED_STATE');
    const right = success(
      await desktop.runtime.invoke('act_window', {
        program: 'gnome-calculator',
        actions: [
          { op: 'key', keys: ['escape'] },
          { op: 'type', text: '2+2' },
          { op: 'key', keys: ['enter'], expect: { text_contains: '4' } },
        ],
      }),
    );
    expect(right.ok).toBe(true);
  });

  it('takes Escape on a window with nothing to cancel as no change, not as a failure', async () => {
    const envelope = success(
      await desktop.runtime.invoke('act_window', {
        program: 'gnome-calculator',
        actions: [
          { op: 'key', keys: ['escape'] },
          { op: 'key', keys: ['escape'] },
        ],
      }),
    );
    const steps = envelope.fields.steps as Array<{ effect?: string; code?: string }>;
    expect(steps[1]).toMatchObject({ effect: 'no_change' });
    expect(steps[1]?.code).toBeUndefined();
  });

  it('types a long expression with its keys sent back to back, every one landing in order', async () => {
    const envelope = success(
      await desktop.runtime.invoke('act_window', {
        program: 'gnome-calculator',
        actions: [
          { op: 'type', text: '0' },
          { op: 'key', keys: 'escape' },
          { op: 'type', text: '123456789+987654321-(1000*3)' },
          {
            op: 'key',
            keys: ['enter'],
            expect: { text_contains: '1111108110', target: { id: 'GtkSourceView' } },
          },
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
    // The window and read of the last replay are checked by the bridge in the first step's own
    // round trip, and the Escape that needs no wait rides with the typing: two round trips.
    const bridge = await (await desktop.session()).bridge();
    const ops: string[] = [];
    bridge.onTiming = (timing) => ops.push(timing.op);
    success(await desktop.runtime.invoke('calculate_sum', { a: 2, b: 3 }));
    bridge.onTiming = undefined;
    expect(ops).toEqual(['type', 'key']);
    const words = await desktop.runtime.invoke('calculate_sum', { a: 'twelve', b: 'thirty' });
    expect('error' in words && words.error.code).toBe('BAD_INPUT');
    // A request that names the program offers the skill with the desktop tools.
    const offered = new Shortlist(desktop.runtime.registry.list()).choose('add 12 and 30 on the calculator');
    expect(offered.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['calculate_sum', 'act_window']),
    );
  });
});
