import type { Check } from '../../contract/envelope.js';
import { inside, near, overlaps, sharedEdge } from './geometry.js';
import { unreachable } from './openings.js';
import { OUTSIDE, type PlanFile, type Room } from './plan-file.js';
import { FT, KINDS } from './program.js';

const names = (rooms: Room[]) => rooms.map((room) => room.name).join(', ');

function insidePlot(plan: PlanFile): Check {
  const plot = { x: 0, y: 0, w: plan.plot.width, d: plan.plot.depth };
  const outside: Room[] = [];
  const clashes: string[] = [];
  for (const storey of plan.storeys) {
    storey.rooms.forEach((room, index) => {
      if (!inside(room, plot)) outside.push(room);
      for (const other of storey.rooms.slice(index + 1)) {
        if (overlaps(room, other)) clashes.push(`${room.name} / ${other.name}`);
      }
    });
  }
  const passed = outside.length === 0 && clashes.length === 0;
  return {
    name: 'plan_rooms_on_plot',
    passed,
    detail: passed
      ? `All ${plan.storeys.reduce((n, s) => n + s.rooms.length, 0)} rooms lie on the plot without overlapping.`
      : `Off the plot: ${names(outside) || 'none'}; overlapping: ${clashes.join(', ') || 'none'}.`,
  };
}

function minimumSizes(plan: PlanFile): Check {
  const small = plan.storeys.flatMap((storey) =>
    storey.rooms.filter((room) => Math.min(room.w, room.d) < KINDS[room.kind].minSideFt * FT - 0.01),
  );
  return {
    name: 'plan_minimum_sizes',
    passed: small.length === 0,
    detail:
      small.length === 0
        ? 'Every room is at least as wide as its kind needs (bedrooms 10\'-6", baths 5\'-0", passages 3\'-6"...).'
        : `Below their minimum width: ${small.map((room) => `${room.name} (${Math.round(Math.min(room.w, room.d))} in, needs ${KINDS[room.kind].minSideFt * FT})`).join(', ')}.`,
  };
}

/** Every door sits on the wall its two rooms share, and every room has one. */
function doors(plan: PlanFile): Check {
  const problems: string[] = [];
  for (const storey of plan.storeys) {
    const byId = new Map(storey.rooms.map((room) => [room.id, room]));
    for (const door of storey.doors) {
      const [a, b] = door.between.map((id) => byId.get(id));
      if (door.between[0] === OUTSIDE) {
        if (!b || !near(door.y, 0)) problems.push(`${door.id} is not on the road side`);
        continue;
      }
      const edge = a && b && sharedEdge(a, b);
      const at = door.along === 'x' ? door.y : door.x;
      const run = door.along === 'x' ? door.x : door.y;
      if (
        !edge ||
        edge.along !== door.along ||
        !near(edge.at, at) ||
        run - door.width / 2 < edge.from - 0.01 ||
        run + door.width / 2 > edge.to + 0.01
      ) {
        problems.push(`${door.id} is not on a wall ${door.between.join(' and ')} share`);
      }
    }
    for (const room of storey.rooms) {
      if (!storey.doors.some((door) => door.between.includes(room.id)))
        problems.push(`${room.name} has no door`);
    }
  }
  return {
    name: 'plan_doors',
    passed: problems.length === 0,
    detail:
      problems.length === 0
        ? 'Every room has a door, each on a wall its two rooms share.'
        : `${problems.join('; ')}.`,
  };
}

function reachable(plan: PlanFile): Check {
  const lost = unreachable(plan.storeys);
  const front = plan.storeys[0]?.doors.find((door) => door.id === plan.front_door);
  const passed = lost.length === 0 && front !== undefined;
  return {
    name: 'plan_every_room_reachable',
    passed,
    detail: passed
      ? `Every room can be walked to from the road, through the front door (${front.between.join(' - ')}).`
      : `${front ? '' : `No front door '${plan.front_door}'. `}Nobody can walk to: ${lost.join(', ') || 'none'}.`,
  };
}

function attachedBaths(plan: PlanFile): Check {
  const without: string[] = [];
  for (const storey of plan.storeys) {
    for (const bed of storey.rooms.filter((room) => room.kind === 'bedroom')) {
      const n = bed.id.replace(/^.*_bed/, '');
      const own = new Set([bed.id, bed.id.replace(/_bed(\d+)$/, `_dress${n}`)]);
      const bath = storey.rooms.find((room) => room.id === bed.id.replace(/_bed(\d+)$/, `_bath${n}`));
      const opens =
        bath &&
        storey.doors.some((door) => door.between.includes(bath.id) && door.between.some((id) => own.has(id)));
      if (!opens) without.push(bed.name);
    }
  }
  const total = plan.storeys
    .flatMap((storey) => storey.rooms)
    .filter((room) => room.kind === 'bedroom').length;
  return {
    name: 'plan_attached_baths',
    passed: without.length === 0 && total === plan.program.bedrooms,
    detail:
      without.length === 0
        ? `${total} of ${plan.program.bedrooms} bedrooms drawn, each with its own bath opening from it or its dress.`
        : `No attached bath: ${without.join(', ')}.`,
  };
}

function stairs(plan: PlanFile): Check {
  const flights = plan.storeys.map((storey) => storey.rooms.find((room) => room.kind === 'stairs'));
  const first = flights[0];
  const aligned =
    first !== undefined &&
    flights.every(
      (flight) => flight && ['x', 'y', 'w', 'd'].every((key) => near(flight[key as 'x'], first[key as 'x'])),
    );
  return {
    name: 'plan_stairs_line_up',
    passed: aligned,
    detail: aligned
      ? `The stairs sit in the same place on all ${plan.storeys.length} storey(s)${plan.storeys.length === 1 ? ' (to the roof)' : ''}.`
      : 'The stairs are missing on a storey or do not line up between storeys.',
  };
}

/** The six rules every plan keeps, read from the plan file alone. */
export function planRules(plan: PlanFile): Check[] {
  return [
    insidePlot(plan),
    minimumSizes(plan),
    doors(plan),
    reachable(plan),
    attachedBaths(plan),
    stairs(plan),
  ];
}
