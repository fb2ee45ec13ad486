import { near } from './geometry.js';
import type { Room } from './plan-file.js';
import { KINDS } from './program.js';

/** A straight run of wall on one storey, in plan inches. */
export interface Line {
  along: 'x' | 'y';
  at: number;
  from: number;
  to: number;
  outer: boolean;
}

/** Every wall line of a storey, each stretch once, from the edges of its enclosed rooms. */
export function wallLines(rooms: Room[], houseDepth: number, width: number): Line[] {
  const byLine = new Map<string, Array<[number, number]>>();
  for (const room of rooms) {
    if (KINDS[room.kind].open) continue;
    const edges: Array<[Line['along'], number, number, number]> = [
      ['x', room.y, room.x, room.x + room.w],
      ['x', room.y + room.d, room.x, room.x + room.w],
      ['y', room.x, room.y, room.y + room.d],
      ['y', room.x + room.w, room.y, room.y + room.d],
    ];
    for (const [along, at, from, to] of edges) {
      const key = `${along}:${at.toFixed(2)}`;
      byLine.set(key, [...(byLine.get(key) ?? []), [from, to]]);
    }
  }
  const lines: Line[] = [];
  for (const [key, spans] of byLine) {
    const [along, atText] = key.split(':') as ['x' | 'y', string];
    const at = Number(atText);
    const outer = along === 'x' ? near(at, 0) || near(at, houseDepth) : near(at, 0) || near(at, width);
    spans.sort((a, b) => a[0] - b[0]);
    let [from, to] = spans[0]!;
    for (const [start, end] of spans.slice(1)) {
      if (start <= to + 0.01) to = Math.max(to, end);
      else {
        lines.push({ along, at, from, to, outer });
        [from, to] = [start, end];
      }
    }
    lines.push({ along, at, from, to, outer });
  }
  return lines;
}
