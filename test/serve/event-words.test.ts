import { describe, expect, it } from 'vitest';
import type { RunEventType } from '../../src/contract/events.js';
import { ProgressWords } from '../../src/serve/event-words.js';
import type { RunEvent } from '../../src/store/runs.js';

const event = (type: RunEventType, fields: Record<string, unknown> = {}): RunEvent => ({
  t: '2026-12-03T10:00:00.000Z',
  type,
  ...fields,
});

describe('the words a progress bar shows for the run log events', () => {
  it('counts a replay step out of the steps its start announced, naming the target as the capability records it', () => {
    const words = new ProgressWords();
    expect(words.say(event('replay-start', { capability: 'member_lookup', steps: 7 }))).toEqual({
      message: 'Replaying member_lookup: 7 steps',
      total: 7,
    });
    expect(
      words.say(
        event('replay-step-end', {
          index: 2,
          op: 'click',
          target: 'link "{{input.memberId}}" in region "Results"',
          ms: 40,
          result: 'ok',
        }),
      ),
    ).toEqual({
      message: 'Step 3 of 7: click link "{{input.memberId}}" in region "Results"',
      done: 3,
      total: 7,
    });
    expect(
      words.say(
        event('replay-step-end', { index: 3, op: 'read', target: 'value of "Status"', result: 'not_found' }),
      ),
    ).toMatchObject({ message: 'Step 4 of 7: read value of "Status" (not found)', done: 4 });
  });

  it('says where a sign-in goes, and nothing for the stages every call passes in a blink', () => {
    const words = new ProgressWords();
    expect(words.say(event('ui-sign-in-start', { url: 'http://127.0.0.1:8080/login' }))?.message).toBe(
      'Signing in to http://127.0.0.1:8080/login',
    );
    for (const type of [
      'input-validated',
      'ledger-claimed',
      'gate-passed',
      'check-passed',
      'call-end',
    ] as const)
      expect(words.say(event(type))).toBeUndefined();
  });

  it("counts a tool's own rows and percentages, and names an event type it made up by its name", () => {
    const rows = new ProgressWords();
    expect(rows.say(event('progress-reported', { stage: 'import-start', steps: 3 }))).toEqual({
      message: 'Import start: 3 steps',
      total: 3,
    });
    expect(
      rows.say(event('progress-reported', { stage: 'row-imported', index: 0, id: 'secret-ish' })),
    ).toEqual({
      message: 'Step 1 of 3: row imported',
      done: 1,
      total: 3,
    });
    const render = new ProgressWords();
    expect(
      render.say(
        event('progress-reported', { stage: 'blender', percent: 42.4, message: 'rendering the front' }),
      ),
    ).toEqual({ message: 'Rendering the front (42%)', done: 42.4, total: 100 });
    const made = { t: '2026-12-03T10:00:00.000Z', type: 'widget-polished' } as unknown as RunEvent;
    expect(new ProgressWords().say(made)?.message).toBe('widget polished');
  });
});
