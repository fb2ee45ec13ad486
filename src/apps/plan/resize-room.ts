import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { defineTool } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import { designPlan } from './design.js';
import { describePlan, draft, planFields } from './draft.js';
import { PlanOutput } from './draw-house-plan.js';
import { feetInches } from './geometry.js';
import { PlanFileInput, RequestId, readPlanInRoots } from './inputs.js';
import { LIBRECAD_HINT } from './librecad.js';
import { OUTSIDE, PLAN_FILE_HINT, type PlanFile, type Room } from './plan-file.js';
import { FT } from './program.js';
import { doorPairs, nextRevision, plotOf } from './revision.js';
import { planRules } from './rules.js';
import type { Minimum } from './score.js';

/** Each try reruns the whole search for this long. */
export const RESIZE_BUDGET_MS = 1500;

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The room the caller means: its id, its name ("Bed Room 1", "bedroom 1"), or its kind when only one has it. */
export function findRoom(plan: PlanFile, said: string): Room {
  const rooms = plan.storeys.flatMap((storey) => storey.rooms);
  const wanted = squash(said);
  const exact = rooms.find((room) => room.id === said || squash(room.name) === wanted);
  if (exact) return exact;
  const byKind = rooms.filter((room) => squash(room.kind) === wanted || squash(room.name).startsWith(wanted));
  if (byKind.length === 1) return byKind[0]!;
  throw new LiftError(
    'BAD_INPUT',
    `room: '${said}' ${byKind.length > 1 ? 'names several rooms' : 'is not a room of this plan'}.`,
    {
      hint: `Name one room: ${rooms.map((room) => room.name).join(', ')}.`,
    },
  );
}

type Direction = 'width' | 'depth';

/** The size the room must reach in one direction, keeping at least (or at most) its size in the other. */
function minimumFor(room: Room, direction: Direction, byInches: number): Minimum {
  const [changed, kept] = direction === 'width' ? (['w', 'd'] as const) : (['d', 'w'] as const);
  if (byInches > 0) return { room: room.id, [changed]: room[changed] + byInches, [kept]: room[kept] };
  const max = { w: 'maxW', d: 'maxD' } as const;
  return { room: room.id, [max[changed]]: room[changed] + byInches, [max[kept]]: room[kept] };
}

function loser(pair: [string, string], plan: PlanFile, resized: Room): string {
  const rooms = new Map(plan.storeys.flatMap((storey) => storey.rooms).map((room) => [room.id, room]));
  const [a, b] = pair.map((id) => rooms.get(id));
  const connectors = new Set(['passage', 'lounge', 'porch', 'terrace']);
  const pick = [a, b].find((room) => room && room.id !== resized.id && !connectors.has(room.kind)) ?? a ?? b;
  return pick?.name ?? (pair[0] === OUTSIDE ? pair[1] : pair[0]);
}

interface Attempt {
  plan?: PlanFile;
  reason?: string;
}

function attempt(
  source: PlanFile,
  room: Room,
  direction: Direction,
  byInches: number,
  revision: number,
  ctx: ToolContext,
): Attempt {
  const keepDoors = doorPairs(source);
  const { plan, evaluation } = designPlan({
    plot: plotOf(source),
    bedrooms: source.program.bedrooms,
    storeys: source.program.storeys,
    seed: source.search.seed,
    budgetMs: RESIZE_BUDGET_MS,
    paper: source.sheet.paper,
    scale: source.sheet.scale,
    constraints: { minimums: [minimumFor(room, direction, byInches)], keepDoors },
    start: source.search.params,
    revision,
    house: source.house,
    signal: ctx.signal,
  });
  if (evaluation.broken.length > 0) {
    const why =
      byInches > 0 ? 'the rooms around it are already at their smallest' : 'it is already at its smallest';
    return { reason: `in ${direction}, ${why}` };
  }
  const kept = new Set(doorPairs(plan).map((pair) => pair.join('|')));
  const lost = keepDoors.find((pair) => !kept.has(pair.join('|')));
  if (lost) return { reason: `in ${direction}, ${loser(lost, source, room)} would lose its door` };
  const failed = planRules(plan).find((check) => !check.passed);
  if (failed) return { reason: `in ${direction}, ${failed.detail?.replace(/\.$/, '') ?? failed.name}` };
  return { plan };
}

export const resizeRoom = defineTool({
  name: 'resize_room',
  title: 'Resize a room of a house plan',
  description:
    "Makes one room of a saved house plan bigger or smaller (by_ft: 1 = a foot bigger, -0.5 = six inches smaller). It tries the full change and then half of it, in width and in depth, rerunning the layout search each time, and keeps a new version only if every plan rule still passes and no room loses a door it had. Otherwise it refuses with the reason (REQUEST_REFUSED) and the plan stays as it is. Returns the new version's files and checks, like draw_house_plan.",
  group: 'cad',
  rung: 'file',
  input: z.strictObject({
    plan_file: PlanFileInput,
    room: z.string().min(2).max(60).describe('the room: its name ("Kitchen", "Bed Room 1") or id'),
    by_ft: z
      .number()
      .min(-4)
      .max(4)
      .refine((n) => n !== 0 && Number.isInteger(n * 4), 'a non-zero multiple of 0.25 ft')
      .describe('feet to add (negative to take away)'),
    request_id: RequestId,
  }),
  output: PlanOutput.extend({
    changed: z.strictObject({ room: z.string(), from: z.string(), to: z.string() }),
  }),
  errors: {
    NOT_FOUND: { hint: PLAN_FILE_HINT },
    REQUEST_REFUSED: {
      hint: 'Try a smaller change, another room, or a bigger plot; the plan was not changed.',
    },
    PROGRAM_FAILED: { hint: LIBRECAD_HINT },
  },
  effect: {
    class: 'reversible',
    repeat:
      'Each call writes a new version next to the others (v1, v2...); the source plan is never changed.',
  },
  timeout: {
    deadlineMs: 90_000,
    settle: 'Look in the output folder resize_room/<house>/ for the newest vN.plan.json.',
  },
  example: {
    plan_file: '/home/me/.lift/out/draw_house_plan/10-marla-3-bed/v0.plan.json',
    room: 'Kitchen',
    by_ft: 1,
  },
  async run(input, ctx) {
    const source = await readPlanInRoots(input.plan_file, ctx);
    const room = findRoom(source, input.room);
    const revision = await nextRevision(ctx, source);
    const reasons: string[] = [];
    let found: PlanFile | undefined;
    for (const step of [input.by_ft, input.by_ft / 2]) {
      const inches = Math.round(step * FT);
      for (const direction of ['width', 'depth'] as const) {
        ctx.emit({
          type: 'progress-reported',
          stage: 'search',
          message: `trying ${room.name} ${feetInches(Math.abs(inches))} ${inches > 0 ? 'bigger' : 'smaller'} in ${direction}`,
        });
        const tried = attempt(source, room, direction, inches, revision, ctx);
        if (tried.plan) found = tried.plan;
        else if (step === input.by_ft && tried.reason) reasons.push(tried.reason);
        if (found) break;
      }
      if (found) break;
    }
    if (!found) {
      const change = input.by_ft > 0 ? 'get bigger' : 'get smaller';
      throw new LiftError(
        'REQUEST_REFUSED',
        `The ${room.name.toLowerCase()} can't ${change} on this plot: ${reasons.join('; ')}. The plan stays as it is.`,
        {
          hint: 'Try a smaller change, another room, or a bigger plot.',
          details: { room: room.name, reasons },
        },
      );
    }
    const after = found.storeys.flatMap((storey) => storey.rooms).find((other) => other.id === room.id)!;
    const drafted = await draft(found, ctx);
    const changed = {
      room: room.name,
      from: `${feetInches(room.w)} x ${feetInches(room.d)}`,
      to: `${feetInches(after.w)} x ${feetInches(after.d)}`,
    };
    return {
      fields: { ...planFields(found, drafted), changed },
      summary: `${room.name} ${changed.from} -> ${changed.to}. ${describePlan(found, drafted.checks)}`,
      files: drafted.files,
      checks: drafted.checks,
      verifiedBy:
        'the plan rules and the door rule; dxf-parser read the saved DXF back; poppler measured the printed scale',
    };
  },
});
