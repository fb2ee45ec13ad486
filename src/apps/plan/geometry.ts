/** A rectangle in inches: x along the road, y back from it. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  d: number;
}

/** A piece of wall line: along x (a horizontal line at y = at) or along y (vertical at x = at). */
export interface Segment {
  along: 'x' | 'y';
  at: number;
  from: number;
  to: number;
}

const EPSILON = 0.01;

export const near = (a: number, b: number): boolean => Math.abs(a - b) < EPSILON;

/** The wall two rectangles share, if they touch along an edge. */
export function sharedEdge(a: Rect, b: Rect): Segment | undefined {
  const overlap = (a0: number, a1: number, b0: number, b1: number) =>
    [Math.max(a0, b0), Math.min(a1, b1)] as const;
  if (near(a.y + a.d, b.y) || near(b.y + b.d, a.y)) {
    const [from, to] = overlap(a.x, a.x + a.w, b.x, b.x + b.w);
    if (to - from > EPSILON) return { along: 'x', at: near(a.y + a.d, b.y) ? b.y : a.y, from, to };
  }
  if (near(a.x + a.w, b.x) || near(b.x + b.w, a.x)) {
    const [from, to] = overlap(a.y, a.y + a.d, b.y, b.y + b.d);
    if (to - from > EPSILON) return { along: 'y', at: near(a.x + a.w, b.x) ? b.x : a.x, from, to };
  }
  return undefined;
}

/** The four edges of a rectangle: front (y low), back, left, right. */
export function edgesOf(r: Rect): Segment[] {
  return [
    { along: 'x', at: r.y, from: r.x, to: r.x + r.w },
    { along: 'x', at: r.y + r.d, from: r.x, to: r.x + r.w },
    { along: 'y', at: r.x, from: r.y, to: r.y + r.d },
    { along: 'y', at: r.x + r.w, from: r.y, to: r.y + r.d },
  ];
}

export const lengthOf = (s: Segment): number => s.to - s.from;

export function overlaps(a: Rect, b: Rect): boolean {
  return (
    a.x < b.x + b.w - EPSILON &&
    b.x < a.x + a.w - EPSILON &&
    a.y < b.y + b.d - EPSILON &&
    b.y < a.y + a.d - EPSILON
  );
}

export function inside(r: Rect, outer: Rect): boolean {
  return (
    r.x >= outer.x - EPSILON &&
    r.y >= outer.y - EPSILON &&
    r.x + r.w <= outer.x + outer.w + EPSILON &&
    r.y + r.d <= outer.y + outer.d + EPSILON
  );
}

/** Whether point (x, y) lies on the segment, with a tolerance. */
export function onSegment(s: Segment, x: number, y: number, tolerance = 0.5): boolean {
  const [across, run] = s.along === 'x' ? [y, x] : [x, y];
  return Math.abs(across - s.at) <= tolerance && run >= s.from - tolerance && run <= s.to + tolerance;
}

/** Feet and inches the way drawings write them: 12'-6". */
export function feetInches(inches: number): string {
  const total = Math.round(inches);
  return `${Math.floor(total / 12)}'-${total % 12}"`;
}
