import { near } from '../plan/geometry.js';
import type { Door, PlanFile, Window } from '../plan/plan-file.js';
import { type Line, wallLines } from '../plan/walls.js';

/** Metres per inch: Blender works in metres. */
const M = 0.0254;
export const DOOR_HEAD = 84 * M;
export const WINDOW_SILL = 36 * M;
export const WINDOW_HEAD = 84 * M;
const SLAB = 6 * M;

/** An axis-aligned box in metres: min corner and size. */
export interface Box {
  name: string;
  kind: 'floor' | 'wall' | 'glass' | 'door' | 'step' | 'roof';
  material: string;
  at: [number, number, number];
  size: [number, number, number];
  /** What the box stands for in the plan (a room, door or window id). */
  of?: string;
}

export interface HouseSpec {
  boxes: Box[];
  rooms: Array<{ id: string; name: string; level: number; x: number; y: number; w: number; d: number }>;
  windows: Array<{ id: string; level: number; centre: [number, number, number] }>;
  doors: Array<{ id: string; level: number; centre: [number, number, number]; front: boolean }>;
  stairs: Array<{ room: string; level: number; top: number }>;
  plot: { width: number; depth: number };
  storeyHeight: number;
  levels: number;
}

interface Opening {
  from: number;
  to: number;
  bottom: number;
  top: number;
  id: string;
  kind: 'door' | 'window';
}

function openingsOn(line: Line, doors: Door[], windows: Window[]): Opening[] {
  const on = (item: { along: string; x: number; y: number }) =>
    item.along === line.along &&
    near(line.along === 'x' ? item.y : item.x, line.at) &&
    (line.along === 'x' ? item.x : item.y) > line.from &&
    (line.along === 'x' ? item.x : item.y) < line.to;
  const span = (item: { x: number; y: number; width: number }) => {
    const centre = line.along === 'x' ? item.x : item.y;
    return [centre - item.width / 2, centre + item.width / 2] as const;
  };
  return [
    ...doors.filter(on).map((door) => ({
      ...rangeOf(span(door)),
      bottom: 0,
      top: DOOR_HEAD,
      id: door.id,
      kind: 'door' as const,
    })),
    ...windows.filter(on).map((window) => ({
      ...rangeOf(span(window)),
      bottom: WINDOW_SILL,
      top: WINDOW_HEAD,
      id: window.id,
      kind: 'window' as const,
    })),
  ].sort((a, b) => a.from - b.from);
}

const rangeOf = ([from, to]: readonly [number, number]) => ({ from: from * M, to: to * M });

/** A box along a wall line, from `from` to `to` (metres along it), `bottom` to `top` high. */
function along(
  line: Line,
  thickness: number,
  from: number,
  to: number,
  bottom: number,
  top: number,
): Pick<Box, 'at' | 'size'> {
  const at = line.at * M - thickness / 2;
  return line.along === 'x'
    ? { at: [from, at, bottom], size: [to - from, thickness, top - bottom] }
    : { at: [at, from, bottom], size: [thickness, to - from, top - bottom] };
}

/** The plan as boxes in metres: floors, walls cut around doors and windows, glass, doors, steps and a roof. */
export function houseSpec(plan: PlanFile): HouseSpec {
  const height = (plan.storeys[0]?.height ?? 132) * M;
  const houseDepth = Math.max(...plan.storeys[0]!.rooms.map((room) => room.y + room.d));
  const boxes: Box[] = [];
  const spec: HouseSpec = {
    boxes,
    rooms: [],
    windows: [],
    doors: [],
    stairs: [],
    plot: { width: plan.plot.width * M, depth: plan.plot.depth * M },
    storeyHeight: height,
    levels: plan.storeys.length,
  };
  for (const storey of plan.storeys) {
    const z0 = storey.level * height;
    for (const room of storey.rooms) {
      spec.rooms.push({
        id: room.id,
        name: room.name,
        level: storey.level,
        x: room.x * M,
        y: room.y * M,
        w: room.w * M,
        d: room.d * M,
      });
      boxes.push({
        name: `Floor ${room.name} ${room.id}`,
        kind: 'floor',
        material: room.kind,
        at: [room.x * M, room.y * M, z0 - SLAB],
        size: [room.w * M, room.d * M, SLAB],
        of: room.id,
      });
      if (room.kind === 'stairs') {
        const steps = 18;
        const rise = height / steps;
        const run = (room.d * M) / steps;
        for (let step = 0; step < steps; step += 1) {
          boxes.push({
            name: `Step ${step + 1} ${room.id}`,
            kind: 'step',
            material: 'step',
            at: [room.x * M + 0.05, room.y * M + step * run, z0],
            size: [room.w * M - 0.1, run, rise * (step + 1)],
            of: room.id,
          });
        }
        spec.stairs.push({ room: room.id, level: storey.level, top: z0 + height });
      }
    }
    for (const line of wallLines(storey.rooms, houseDepth, plan.plot.width)) {
      const thickness = (line.outer ? plan.walls.outer : plan.walls.inner) * M;
      let cursor = line.from * M;
      const end = line.to * M;
      const wall = (suffix: string, from: number, to: number, bottom: number, top: number) => {
        if (to - from > 0.005 && top - bottom > 0.005) {
          boxes.push({
            name: `Wall ${storey.level} ${line.along}${line.at.toFixed(0)} ${suffix}`,
            kind: 'wall',
            material: 'wall',
            ...along(line, thickness, from, to, z0 + bottom, z0 + top),
          });
        }
      };
      for (const opening of openingsOn(line, storey.doors, storey.windows)) {
        wall(`${cursor.toFixed(2)}`, cursor, opening.from, 0, height);
        wall(`over ${opening.id}`, opening.from, opening.to, opening.top, height);
        if (opening.kind === 'window') {
          wall(`under ${opening.id}`, opening.from, opening.to, 0, opening.bottom);
          boxes.push({
            name: `Glass ${opening.id}`,
            kind: 'glass',
            material: 'glass',
            ...along(line, 0.02, opening.from, opening.to, z0 + opening.bottom, z0 + opening.top),
            of: opening.id,
          });
        } else {
          const front = opening.id === plan.front_door;
          boxes.push({
            name: front ? 'Front door' : `Door ${opening.id}`,
            kind: 'door',
            material: front ? 'front_door' : 'door',
            ...along(line, 0.04, opening.from, opening.to, z0, z0 + opening.top),
            of: opening.id,
          });
        }
        cursor = opening.to;
      }
      wall(`${cursor.toFixed(2)} end`, cursor, end, 0, height);
    }
    for (const window of storey.windows) {
      spec.windows.push({
        id: window.id,
        level: storey.level,
        centre: [window.x * M, window.y * M, z0 + (WINDOW_SILL + WINDOW_HEAD) / 2],
      });
    }
    for (const door of storey.doors) {
      if (door.between[0] === 'outside') continue;
      spec.doors.push({
        id: door.id,
        level: storey.level,
        centre: [door.x * M, door.y * M, z0 + DOOR_HEAD / 2],
        front: door.id === plan.front_door,
      });
    }
  }
  boxes.push({
    name: 'Roof',
    kind: 'roof',
    material: 'roof',
    at: [0, 0, plan.storeys.length * height],
    size: [plan.plot.width * M, houseDepth * M, SLAB],
  });
  return spec;
}
