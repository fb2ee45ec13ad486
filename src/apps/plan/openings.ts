import { edgesOf, lengthOf, near, type Segment, sharedEdge } from './geometry.js';
import type { Link, StoreyLayout } from './layout.js';
import { type Door, OUTSIDE, type Room, type Window } from './plan-file.js';
import { FT, KINDS } from './program.js';

/** Wall left clear between a door and the corner of the room. */
const CORNER = 6;

export interface Openings {
  doors: Door[];
  windows: Window[];
  /** Links no shared wall could carry: "room -> wanted". */
  missing: Array<{ room: string; to: string[] }>;
  /** Rooms that need daylight and have no outside wall. */
  dark: string[];
}

function doorOn(edge: Segment, width: number, id: string, between: [string, string]): Door | undefined {
  if (lengthOf(edge) < width + 2 * CORNER) return undefined;
  const centre = edge.from + CORNER + width / 2;
  const [x, y] = edge.along === 'x' ? [centre, edge.at] : [edge.at, centre];
  return { id, between, x, y, along: edge.along, width };
}

function resolve(link: Link, byId: Map<string, Room>, id: string): Door | undefined {
  const room = byId.get(link.room);
  if (!room) return undefined;
  for (const target of link.to) {
    const other = byId.get(target);
    const edge = other && sharedEdge(room, other);
    const door = edge && doorOn(edge, link.width, id, [link.room, target]);
    if (door) return door;
  }
  return undefined;
}

/** Edges of a room that face the street, the rear setback or an open porch or terrace. */
export function outsideEdges(room: Room, rooms: Room[], houseDepth: number): Segment[] {
  const out: Segment[] = [];
  for (const edge of edgesOf(room)) {
    if (edge.along === 'x' && (near(edge.at, 0) || near(edge.at, houseDepth))) {
      out.push(edge);
      continue;
    }
    for (const other of rooms) {
      if (other === room || !KINDS[other.kind].open) continue;
      const shared = sharedEdge(room, other);
      if (shared && near(shared.at, edge.at) && shared.along === edge.along) out.push(shared);
    }
  }
  return out.filter((edge) => lengthOf(edge) >= 2 * FT);
}

const WINDOW_WIDTH: Partial<Record<Room['kind'], number>> = {
  drawing: 72,
  dining: 60,
  lounge: 60,
  bedroom: 60,
  kitchen: 42,
  bath: 24,
  stairs: 36,
};

/** The longest stretch of an edge left free by the doors on it. */
function freeStretch(edge: Segment, doors: Door[]): Segment {
  let best = edge;
  let bestLength = 0;
  const cuts = doors
    .filter((door) => door.along === edge.along && near(edge.along === 'x' ? door.y : door.x, edge.at))
    .map((door) => {
      const centre = edge.along === 'x' ? door.x : door.y;
      return [centre - door.width / 2 - CORNER, centre + door.width / 2 + CORNER] as const;
    })
    .sort((a, b) => a[0] - b[0]);
  let from = edge.from;
  for (const [start, end] of [...cuts, [edge.to, edge.to] as const]) {
    const piece = { ...edge, from, to: Math.max(from, Math.min(start, edge.to)) };
    if (lengthOf(piece) > bestLength) {
      best = piece;
      bestLength = lengthOf(piece);
    }
    from = Math.max(from, end);
  }
  return best;
}

function windowFor(
  room: Room,
  rooms: Room[],
  doors: Door[],
  houseDepth: number,
  id: string,
): Window | undefined {
  const wanted = WINDOW_WIDTH[room.kind];
  if (!wanted) return undefined;
  const stretches = outsideEdges(room, rooms, houseDepth)
    .map((edge) => freeStretch(edge, doors))
    .sort((a, b) => lengthOf(b) - lengthOf(a));
  const stretch = stretches[0];
  if (!stretch || lengthOf(stretch) < 2 * FT + 2 * CORNER) return undefined;
  const width = Math.min(wanted, lengthOf(stretch) - 2 * CORNER);
  const centre = (stretch.from + stretch.to) / 2;
  const [x, y] = stretch.along === 'x' ? [centre, stretch.at] : [stretch.at, centre];
  return { id, room: room.id, x, y, along: stretch.along, width };
}

/** Puts a door on every link a shared wall can carry, the street gate on the porch, and the windows. */
export function placeOpenings(storey: StoreyLayout, houseDepth: number): Openings {
  const byId = new Map(storey.rooms.map((room) => [room.id, room]));
  const doors: Door[] = [];
  const missing: Openings['missing'] = [];
  const prefix = storey.rooms[0]?.id.split('_')[0] ?? 'g';
  for (const link of storey.links) {
    const door = resolve(link, byId, `${prefix}_door${doors.length + 1}`);
    if (door) doors.push(door);
    else missing.push({ room: link.room, to: link.to });
  }
  const porch = storey.rooms.find((room) => room.kind === 'porch');
  if (porch) {
    const gate = porch.w - 2 * FT;
    doors.push({
      id: `${prefix}_gate`,
      between: [OUTSIDE, porch.id],
      x: porch.x + porch.w / 2,
      y: 0,
      along: 'x',
      width: gate,
    });
  }
  const windows: Window[] = [];
  const dark: string[] = [];
  for (const room of storey.rooms) {
    const window = windowFor(room, storey.rooms, doors, houseDepth, `${prefix}_win${windows.length + 1}`);
    if (window) windows.push(window);
    else if (KINDS[room.kind].daylight) dark.push(room.id);
  }
  return { doors, windows, missing, dark };
}

/** Rooms nobody can walk to from the street: through doors, the open porch, and the stairs between storeys. */
export function unreachable(storeys: Array<{ rooms: Room[]; doors: Door[] }>): string[] {
  const neighbours = new Map<string, string[]>();
  const join = (a: string, b: string) => {
    neighbours.set(a, [...(neighbours.get(a) ?? []), b]);
    neighbours.set(b, [...(neighbours.get(b) ?? []), a]);
  };
  for (const storey of storeys) for (const door of storey.doors) join(door.between[0], door.between[1]);
  const stairs = storeys.map((storey) => storey.rooms.find((room) => room.kind === 'stairs')?.id);
  for (let level = 1; level < stairs.length; level += 1) {
    const [below, above] = [stairs[level - 1], stairs[level]];
    if (below && above) join(below, above);
  }
  const seen = new Set<string>([OUTSIDE]);
  const queue = [OUTSIDE];
  while (queue.length > 0) {
    const next = queue.shift()!;
    for (const other of neighbours.get(next) ?? []) {
      if (!seen.has(other)) {
        seen.add(other);
        queue.push(other);
      }
    }
  }
  return storeys.flatMap((storey) =>
    storey.rooms.filter((room) => !seen.has(room.id)).map((room) => room.id),
  );
}
