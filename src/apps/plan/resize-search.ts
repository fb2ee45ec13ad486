import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { designPlan } from './design.js';
import { OUTSIDE, type PlanFile, type Room } from './plan-file.js';
import { doorPairs, plotOf } from './revision.js';
import { planRules } from './rules.js';
import type { Minimum } from './score.js';

/**
 * The search behind resize_room: one try at a room's new size, kept only if every plan rule
 * passes and no room loses its door. Loaded when resize_room is first called.
 */

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

export type Direction = 'width' | 'depth';

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

export interface Attempt {
  plan?: PlanFile;
  reason?: string;
}

export function attempt(
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
