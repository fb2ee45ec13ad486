import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dxfChecks, parseDxf } from '../../../src/apps/plan/dxf-checks.js';
import { type PlanFile, PlanFileSchema } from '../../../src/apps/plan/plan-file.js';
import { planRules } from '../../../src/apps/plan/rules.js';
import { tools } from '../../../src/apps/plan/tools.js';
import type { Envelope, SuccessEnvelope } from '../../../src/contract/envelope.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';

function success(envelope: Envelope): SuccessEnvelope {
  if (!('checks' in envelope)) throw new Error(`expected a result, got ${JSON.stringify(envelope)}`);
  return envelope;
}

const pairs = (plan: PlanFile) =>
  new Set(plan.storeys.flatMap((s) => s.doors.map((d) => [...d.between].sort().join('|'))));

describe('draw_house_plan, set_sheet and resize_room on LibreCAD', () => {
  const home = tempDir('lift-plan-');
  let runtime: Runtime;
  let drawn: SuccessEnvelope;
  let plan: PlanFile;
  beforeAll(async () => {
    runtime = new Runtime({ home: home.path, tools });
    drawn = success(await runtime.invoke('draw_house_plan', { plot: '10 marla', bedrooms: 3 }));
    plan = PlanFileSchema.parse(JSON.parse(readFileSync(drawn.files.plan!, 'utf8')));
  }, 120_000);
  afterAll(async () => {
    await runtime.close();
    home.remove();
  });

  it('draws a 10 marla house with 17 passing checks and writes four private files', async () => {
    expect(drawn.ok, JSON.stringify(drawn.checks.filter((check) => !check.passed))).toBe(true);
    expect(drawn.checks).toHaveLength(17);
    expect(drawn.fields).toMatchObject({
      plot: { width_ft: 35, depth_ft: 65, marla: 10.1 },
      sheet: '1:125 on A3',
      revision: 0,
    });
    for (const path of Object.values(drawn.files)) expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(drawn.files.pdf!).subarray(0, 5).toString()).toBe('%PDF-');
    expect(drawn.summary).toMatch(/1:125 on A3.*3 attached bath\(s\).*\(checked 17\/17\)/);
    expect(plan.storeys[0]!.rooms.filter((room) => room.kind === 'bedroom')).toHaveLength(3);
    const events = (await runtime.store.runs.events(drawn.run_id)).map((event) => event.type);
    expect(events).toContain('progress-reported');
  });

  it('refuses a scale that does not fit, with the sizes, and changes nothing', async () => {
    const refused = await runtime.invoke('set_sheet', { plan_file: drawn.files.plan, scale: '1:100' });
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).toMatch(
      /at 1:100 the plan needs \d+ x \d+ mm and A3 has room for 390 x 231/,
    );
    expect(JSON.stringify(refused)).toContain('1:125 fits A3');
  });

  it('redraws the plan at another scale and measures it on the printed sheet', async () => {
    const redrawn = success(
      await runtime.invoke('set_sheet', { plan_file: drawn.files.plan, scale: '1:150' }),
    );
    expect(redrawn.ok, JSON.stringify(redrawn.checks.filter((check) => !check.passed))).toBe(true);
    expect(redrawn.fields).toMatchObject({ sheet: '1:150 on A3', revision: 1 });
    expect(redrawn.checks.find((check) => check.name === 'pdf_true_scale')?.detail).toContain('1:150');
  });

  it('makes the kitchen bigger only in a version where every room keeps its doors', async () => {
    const resized = await runtime.invoke('resize_room', {
      plan_file: drawn.files.plan,
      room: 'kitchen',
      by_ft: 1,
    });
    if (!resized.ok) {
      expect(JSON.stringify(resized)).toMatch(
        /REQUEST_REFUSED.*can't get bigger on this plot: in width, .*; in depth, /,
      );
      return;
    }
    const after = PlanFileSchema.parse(JSON.parse(readFileSync(success(resized).files.plan!, 'utf8')));
    const [old, now] = [plan, after].map((p) => p.storeys[0]!.rooms.find((room) => room.kind === 'kitchen')!);
    expect(now!.w * now!.d).toBeGreaterThan(old!.w * old!.d);
    for (const pair of pairs(plan)) expect(pairs(after)).toContain(pair);
  });

  it('refuses a change that would break a rule, with the reason for each direction', async () => {
    const refused = await runtime.invoke('resize_room', {
      plan_file: drawn.files.plan,
      room: 'Passage',
      by_ft: -4,
    });
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).toContain(
      "The passage can't get smaller on this plot: in width, it is already at its smallest; in depth, it is already at its smallest",
    );
  });

  it('reads a plan file only from inside the output folder', async () => {
    const outside = tempDir('lift-plan-outside-');
    try {
      const copy = `${outside.path}/v0.plan.json`;
      writeFileSync(copy, readFileSync(drawn.files.plan!));
      const refused = await runtime.invoke('set_sheet', { plan_file: copy, scale: '1:150' });
      if (!('error' in refused)) throw new Error(`read it: ${JSON.stringify(refused)}`);
      expect(refused.error).toMatchObject({ code: 'BAD_INPUT', outcome: 'not_started' });
      expect(refused.error.message).toContain('outside the folders plan tools may use');
    } finally {
      outside.remove();
    }
  });

  it('fails the read-back when the saved DXF lost a room, and the rules when a door goes', async () => {
    const text = readFileSync(drawn.files.dxf!, 'utf8');
    const broken: PlanFile = structuredClone(plan);
    broken.storeys[0]!.rooms[0]!.w += 24;
    const checks = dxfChecks(await parseDxf(text), broken);
    expect(checks.find((check) => check.name === 'dxf_rooms')).toMatchObject({ passed: false });
    const doorless: PlanFile = structuredClone(plan);
    const bed = doorless.storeys[0]!.rooms.find((room) => room.kind === 'bedroom')!;
    doorless.storeys[0]!.doors = doorless.storeys[0]!.doors.filter((door) => !door.between.includes(bed.id));
    const rules = planRules(doorless);
    expect(rules.find((check) => check.name === 'plan_doors')?.detail).toContain(`${bed.name} has no door`);
    expect(rules.find((check) => check.name === 'plan_every_room_reachable')?.passed).toBe(false);
  });
});
