import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import type { Check } from '../../contract/envelope.js';
import { writeFileAtomic } from '../../rungs/file/atomic.js';
import { dxfChecks, parseDxf } from './dxf-checks.js';
import { planToDxf } from './dxf-drawing.js';
import { feetInches } from './geometry.js';
import { pdfToPng, printDxf } from './librecad.js';
import { type PlanFile, writePlanFile } from './plan-file.js';
import { FT } from './program.js';
import { planRules } from './rules.js';
import { sheetChecks } from './sheet-checks.js';

export interface Drafted {
  files: { plan: string; dxf: string; pdf: string; png: string };
  checks: Check[];
  ms: Record<string, number>;
}

export const DRAFT_OUTPUT = {
  plan: 'the plan file (JSON) the 3D, building-model, resize_room and set_sheet tools take',
  dxf: 'the drawing for AutoCAD, in inches',
  pdf: 'the sheet printed at true scale by LibreCAD',
  png: 'a picture of the sheet',
};

/** The folder a house's versions live in, under the calling tool's output folder. */
export function houseFolder(ctx: ToolContext, plan: PlanFile): string {
  return join(ctx.outputDir, plan.house);
}

/**
 * Writes one version of a plan (plan file, DXF, PDF by LibreCAD, PNG) and checks it: the
 * plan rules, the DXF read back by an independent parser, and the printed sheet's scale.
 */
export async function draft(plan: PlanFile, ctx: ToolContext): Promise<Drafted> {
  const dir = houseFolder(ctx, plan);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const base = join(dir, `v${plan.revision}`);
  const files = { plan: `${base}.plan.json`, dxf: `${base}.dxf`, pdf: `${base}.pdf`, png: `${base}.png` };
  const ms: Record<string, number> = {};
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      ms[name] = Math.round(performance.now() - started);
    }
  };
  ctx.markStarted();
  await writePlanFile(files.plan, plan);
  await timed('dxf', async () => writeFileAtomic(files.dxf, await planToDxf(plan), { mode: 0o600 }));
  ctx.emit({ type: 'progress-reported', stage: 'print', message: 'LibreCAD prints the DXF to PDF' });
  await timed('pdf', () => printDxf(files.dxf, files.pdf, plan.sheet.scale, ctx));
  ctx.emit({ type: 'progress-reported', stage: 'check', message: 'reading the DXF and the sheet back' });
  const [png, parsed, sheet] = await Promise.all([
    timed('png', () => pdfToPng(files.pdf, files.png, 110, ctx)),
    timed('read_dxf', async () => parseDxf(await readFile(files.dxf, 'utf8'))),
    timed('read_pdf', () => sheetChecks(files.pdf, plan, ctx)),
  ]);
  void png;
  return { files, checks: [...planRules(plan), ...dxfChecks(parsed, plan), ...sheet], ms };
}

/** The fields every plan tool answers with (PlanOutput): the files drafted and what the plan says. */
export function planFields(plan: PlanFile, drafted: Drafted) {
  return {
    plan_file: drafted.files.plan,
    dxf: drafted.files.dxf,
    pdf: drafted.files.pdf,
    png: drafted.files.png,
    revision: plan.revision,
    plot: { width_ft: plan.plot.width / FT, depth_ft: plan.plot.depth / FT, marla: plan.plot.marla },
    sheet: `1:${plan.sheet.scale} on ${plan.sheet.paper}`,
    rooms: plan.storeys.flatMap((storey) => storey.rooms.map((room) => room.name)),
    notes: plan.notes,
    search: { candidates: plan.search.candidates, seconds: plan.search.seconds, score: plan.search.score },
  };
}

/** The result text a person reads: plot, sheet, rooms and sizes, notes. */
export function describePlan(plan: PlanFile, checks: Check[]): string {
  const rooms = plan.storeys.flatMap((storey) => storey.rooms);
  const covered = Math.round(
    rooms
      .filter((room) => plan.storeys[0]?.rooms.includes(room) && room.kind !== 'porch')
      .reduce((sum, room) => sum + room.w * room.d, 0) / 144,
  );
  const listed = rooms
    .filter((room) => ['drawing', 'dining', 'lounge', 'kitchen', 'bedroom'].includes(room.kind))
    .map((room) => `${room.name} ${feetInches(room.w)} x ${feetInches(room.d)}`)
    .join('; ');
  const baths = rooms.filter((room) => room.kind === 'bath').length;
  const passed = checks.filter((check) => check.passed).length;
  const notes = plan.notes.length > 0 ? ` Notes: ${plan.notes.join('; ')}.` : '';
  return `v${plan.revision}: ${plan.storeys.length === 1 ? 'ground floor plan' : `${plan.storeys.length}-storey plan`} for a ${feetInches(plan.plot.width)} x ${feetInches(plan.plot.depth)} plot (${plan.plot.marla} marla), 1:${plan.sheet.scale} on ${plan.sheet.paper}. Covered ${covered.toLocaleString('en-US')} sq ft on the ground floor. Rooms: ${listed}; ${baths} attached bath(s).${notes} (checked ${passed}/${checks.length})`;
}
