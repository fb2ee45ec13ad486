import type { LayoutParams, Site, StoreyLayout } from './layout.js';
import { buildLayout } from './layout.js';
import { placeOpenings, unreachable } from './openings.js';
import type { Door, Room, Window } from './plan-file.js';
import { FT, KINDS } from './program.js';

/** Points a room nobody can walk to costs: more than any other fault, so no best plan has one. */
export const UNREACHABLE_POINTS = 40;
const MISSING_DOOR_POINTS = 15;
const DARK_POINTS = 6;
const SMALL_POINTS = 25;
const AREA_WEIGHT = 8;
const CORRIDOR_ASPECT = 2.2;

/** A size a room must reach (resize_room's request): at least, or at most, this wide or deep, inches. */
export interface Minimum {
  room: string;
  w?: number;
  d?: number;
  maxW?: number;
  maxD?: number;
}

/** What a new version of an existing plan must respect. */
export interface Constraints {
  minimums?: Minimum[];
  /** Pairs of rooms the old plan joined by a door: losing one costs as much as an unreachable room. */
  keepDoors?: Array<[string, string]>;
}

export interface PlacedStorey {
  level: number;
  rooms: Room[];
  doors: Door[];
  windows: Window[];
}

export interface Evaluation {
  score: number;
  storeys: PlacedStorey[];
  missing: Array<{ room: string; to: string[] }>;
  dark: string[];
  unreachable: string[];
  small: string[];
  corridors: string[];
  /** Minimums of the caller that this candidate breaks. */
  broken: string[];
  /** Door pairs of the old plan this candidate lost. */
  lostDoors: Array<[string, string]>;
}

function roomPenalty(room: Room, small: string[], corridors: string[]): number {
  const rule = KINDS[room.kind];
  let points = 0;
  const area = (room.w * room.d) / (FT * FT);
  if (rule.targetSqft > 0) points += (Math.abs(area - rule.targetSqft) / rule.targetSqft) * AREA_WEIGHT;
  const short = Math.min(room.w, room.d) / FT;
  if (short < rule.minSideFt) {
    small.push(room.id);
    points += SMALL_POINTS + 12 * (rule.minSideFt - short);
  }
  const aspect = Math.max(room.w, room.d) / Math.min(room.w, room.d);
  if (!rule.long && aspect > CORRIDOR_ASPECT) {
    corridors.push(room.id);
    points += (aspect - CORRIDOR_ASPECT) * 12;
  }
  return points;
}

function brokenMinimums(storeys: StoreyLayout[], minimums: Minimum[]): string[] {
  const rooms = new Map(storeys.flatMap((storey) => storey.rooms).map((room) => [room.id, room]));
  return minimums
    .filter(({ room, w, d, maxW, maxD }) => {
      const found = rooms.get(room);
      return (
        !found ||
        (w !== undefined && found.w < w - 0.01) ||
        (d !== undefined && found.d < d - 0.01) ||
        (maxW !== undefined && found.w > maxW + 0.01) ||
        (maxD !== undefined && found.d > maxD + 0.01)
      );
    })
    .map(({ room }) => room);
}

/** Builds one candidate and scores it: lower is better, 0 would be a perfect plan. */
export function evaluate(site: Site, params: LayoutParams, constraints: Constraints = {}): Evaluation {
  const layout = buildLayout(site, params);
  const small: string[] = [];
  const corridors: string[] = [];
  const missing: Evaluation['missing'] = [];
  const dark: string[] = [];
  let score = 0;
  const storeys = layout.map((storey) => {
    const openings = placeOpenings(storey, site.houseDepth);
    missing.push(...openings.missing);
    dark.push(...openings.dark);
    for (const room of storey.rooms) score += roomPenalty(room, small, corridors);
    return { level: storey.level, rooms: storey.rooms, doors: openings.doors, windows: openings.windows };
  });
  const lost = unreachable(storeys);
  const broken = brokenMinimums(layout, constraints.minimums ?? []);
  const joined = new Set(
    storeys.flatMap((storey) => storey.doors.map((door) => [...door.between].sort().join('|'))),
  );
  const lostDoors = (constraints.keepDoors ?? []).filter((pair) => !joined.has([...pair].sort().join('|')));
  score +=
    lostDoors.length * UNREACHABLE_POINTS +
    missing.length * MISSING_DOOR_POINTS +
    dark.length * DARK_POINTS +
    lost.length * UNREACHABLE_POINTS +
    broken.length * 1000;
  return { score, storeys, missing, dark, unreachable: lost, small, corridors, broken, lostDoors };
}
