import { rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { tempHome } from '../replay/helpers.js';
import { lift } from './cli-helpers.js';

it('lift demo --json discovers, replays on both layouts with zero model events, approves a write and exits by itself', {
  timeout: 300_000,
}, async () => {
  const home = tempHome();
  try {
    const { code, stdout, stderr } = await lift(['demo', '--json'], { LIFT_MODEL: '' }, home.home, 280_000);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.ok).toBe(true);
    expect(report.explorer).toBe('scripted');
    expect(report.capability.revision).toMatch(/^[0-9a-f]{64}$/);
    expect(report.capability.steps).toBeGreaterThanOrEqual(7);
    expect(report.discovery.observation_tokens.length).toBeGreaterThan(0);
    expect(report.replays).toHaveLength(7);
    expect(new Set(report.replays.map((replay: { layout: string }) => replay.layout))).toEqual(
      new Set(['normal', 'reversed']),
    );
    for (const replay of report.replays) expect(replay.model_events).toBe(0);
    expect(report.replays.at(-1)).toMatchObject({ outcome: 'not_found', outputs: {} });
    expect(report.replays[0].outputs).toEqual({ savingsBalance: 5300.75, currency: 'GBP' });
    expect(report.write).toMatchObject({ ok: true, landed: true, model_events: 0 });
  } finally {
    home.cleanup();
  }
});

it('prints, with --keep, a command that, copied as printed, reads a replay run in the kept home', {
  timeout: 300_000,
}, async () => {
  const home = tempHome();
  let kept: string | undefined;
  try {
    const { code, stdout, stderr } = await lift(['demo', '--keep'], { LIFT_MODEL: '' }, home.home, 280_000);
    expect(code, stderr).toBe(0);
    kept = /\[demo\] kept (\S+)/.exec(stdout)?.[1];
    const hint = /count them: LIFT_HOME=(\S+) lift runs show (\S+)\)/.exec(stdout);
    expect(hint, stdout).not.toBeNull();
    expect(hint![1]).toBe(kept);
    // Copied as printed, the command reads the run: its events, none of them a model's.
    const shown = await lift(['runs', 'show', hint![2]!], { LIFT_HOME: hint![1]! }, home.home);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(hint![2]!);
    expect(shown.stdout).not.toMatch(/\bmodel[-_]/);
  } finally {
    if (kept?.includes('lift-demo-')) rmSync(kept, { recursive: true, force: true });
    home.cleanup();
  }
});
