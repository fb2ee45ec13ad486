import { z } from 'zod';
import type { Room, RoomKind } from './plan-file.js';
import { FT, type StoreyProgram } from './program.js';

/** A door a room must have: to the first of `to` it shares enough wall with. */
export interface Link {
  room: string;
  to: string[];
  width: number;
}

export interface StoreyLayout {
  level: number;
  rooms: Room[];
  links: Link[];
}

/** How one bedroom cell is cut into bedroom, bath and dress. */
export interface CellCut {
  /** side: bath and dress in a column beside the bedroom; outer: a strip on the outside wall; inner: a strip toward the passage, the dress being the way in. */
  pattern: 'side' | 'outer' | 'inner';
  bathW: number;
  bathD: number;
  /** Column or bath on the right instead of the left. */
  flip: boolean;
}

export type MiddleOrder = 'SKL' | 'SLK' | 'KLS' | 'LKS';

const Length = z.number().min(0).max(2400);
const CutSchema = z.strictObject({
  pattern: z.enum(['side', 'outer', 'inner']),
  bathW: Length,
  bathD: Length,
  flip: z.boolean(),
});

/** The search's parameters, kept in the plan file so a new version can start from them. */
export const LayoutParamsSchema = z.strictObject({
  front: Length,
  middle: Length,
  passage: Length,
  porchWidth: Length,
  porchLeft: z.boolean(),
  diningWidth: Length,
  order: z.enum(['SKL', 'SLK', 'KLS', 'LKS']),
  kitchenWidth: Length,
  stairsWidth: Length,
  weights: z.array(z.array(z.number().positive().max(10)).max(8)).max(3),
  cuts: z.array(z.array(CutSchema).max(8)).max(3),
  frontCut: CutSchema,
});

/** Everything the search varies; inches. */
export interface LayoutParams {
  front: number;
  middle: number;
  passage: number;
  porchWidth: number;
  porchLeft: boolean;
  /** Width of a dining room beside the drawing room; 0 for none. */
  diningWidth: number;
  order: MiddleOrder;
  kitchenWidth: number;
  stairsWidth: number;
  /** Per storey, the relative widths of its rear bedroom cells. */
  weights: number[][];
  cuts: CellCut[][];
  frontCut: CellCut;
}

export interface Site {
  width: number;
  /** Depth of the covered area (the plot less the rear setback). */
  houseDepth: number;
  programs: StoreyProgram[];
}

const PREFIX = ['g', 'f1', 'f2', 'f3'];

class StoreyBuilder {
  readonly rooms: Room[] = [];
  readonly links: Link[] = [];
  constructor(readonly level: number) {}

  id(name: string): string {
    return `${PREFIX[this.level]}_${name}`;
  }

  room(key: string, name: string, kind: RoomKind, x: number, y: number, w: number, d: number): string {
    const id = this.id(key);
    this.rooms.push({ id, name, kind, x, y, w, d });
    return id;
  }

  link(room: string, to: string[], width: number): void {
    this.links.push({ room, to, width });
  }
}

/**
 * One bedroom cell: the bedroom, its bath on the outer wall, and a dress where room is left.
 * `inner` is the side toward the passage or lounge (low y at the back, high y at the front).
 */
function cell(
  s: StoreyBuilder,
  n: number,
  box: { x: number; y: number; w: number; d: number },
  cut: CellCut,
  innerLow: boolean,
  reach: string[],
): void {
  const { x, y, w, d } = box;
  const bathD = Math.min(cut.bathD, d - 4 * FT);
  if (cut.pattern === 'side') {
    const colW = Math.min(cut.bathW, w - 6 * FT);
    const colX = cut.flip ? x + w - colW : x;
    const bedX = cut.flip ? x : x + colW;
    const bed = s.room(`bed${n}`, `Bed Room ${n}`, 'bedroom', bedX, y, w - colW, d);
    const bathY = innerLow ? y + d - bathD : y;
    const dressY = innerLow ? y : y + bathD;
    const bath = s.room(`bath${n}`, `Bath ${n}`, 'bath', colX, bathY, colW, bathD);
    const dress = s.room(`dress${n}`, `Dress ${n}`, 'dress', colX, dressY, colW, d - bathD);
    s.link(bed, reach, 36);
    s.link(dress, [bed], 30);
    s.link(bath, [dress, bed], 30);
    return;
  }
  // A strip of bath and dress across the cell, on the outer wall or between the bedroom and the way in.
  const outer = cut.pattern === 'outer';
  const stripLow = innerLow !== outer;
  const bedD = d - bathD;
  const bedY = stripLow ? y + bathD : y;
  const stripY = stripLow ? y : y + bedD;
  const bed = s.room(`bed${n}`, `Bed Room ${n}`, 'bedroom', x, bedY, w, bedD);
  const bathW = w - cut.bathW < 3.5 * FT ? w : cut.bathW;
  const bathX = cut.flip ? x + w - bathW : x;
  const bath = s.room(`bath${n}`, `Bath ${n}`, 'bath', bathX, stripY, bathW, bathD);
  if (bathW === w) {
    s.link(bed, reach, 36);
    s.link(bath, [bed], 30);
    return;
  }
  const dressX = cut.flip ? x : x + bathW;
  const dress = s.room(`dress${n}`, `Dress ${n}`, 'dress', dressX, stripY, w - bathW, bathD);
  if (outer) {
    s.link(bed, reach, 36);
    s.link(dress, [bed], 30);
  } else {
    s.link(dress, reach, 36);
    s.link(bed, [dress], 30);
  }
  s.link(bath, [bed, dress], 30);
}

function splitWidths(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const widths = weights.map((weight) => Math.round((total * weight) / sum / 3) * 3);
  widths[widths.length - 1] = total - widths.slice(0, -1).reduce((a, b) => a + b, 0);
  return widths;
}

function middleBand(
  s: StoreyBuilder,
  site: Site,
  p: LayoutParams,
  ground: boolean,
): { lounge: string; passage: string } {
  const y = p.front;
  const stairsLeft = p.order.startsWith('S');
  const stairsX = stairsLeft ? 0 : site.width - p.stairsWidth;
  const stairs = s.room('stairs', 'Stairs', 'stairs', stairsX, y, p.stairsWidth, p.middle);
  const restX = stairsLeft ? p.stairsWidth : 0;
  const rest = site.width - p.stairsWidth;
  let lounge: string;
  if (ground) {
    const kitchenFirst = p.order === 'SKL' || p.order === 'KLS';
    const loungeW = rest - p.kitchenWidth;
    const kitchenX = kitchenFirst ? restX : restX + loungeW;
    const loungeX = kitchenFirst ? restX + p.kitchenWidth : restX;
    lounge = s.room('lounge', 'TV Lounge', 'lounge', loungeX, y, loungeW, p.middle);
    const kitchen = s.room('kitchen', 'Kitchen', 'kitchen', kitchenX, y, p.kitchenWidth, p.middle);
    s.link(kitchen, [lounge, s.id('passage')], 36);
  } else {
    lounge = s.room('lounge', 'Family Lounge', 'lounge', restX, y, rest, p.middle);
  }
  const passage = s.room('passage', 'Passage', 'passage', 0, y + p.middle, site.width, p.passage);
  s.link(stairs, [lounge, passage], 36);
  s.link(lounge, [passage], 42);
  return { lounge, passage };
}

/** Builds the rooms of every storey, in bands from the road back, from one set of parameters. */
export function buildLayout(site: Site, p: LayoutParams): StoreyLayout[] {
  const rearY = p.front + p.middle + p.passage;
  const rearD = site.houseDepth - rearY;
  let bedroom = 1;
  return site.programs.map((program) => {
    const s = new StoreyBuilder(program.level);
    const ground = program.level === 0;
    const porchX = p.porchLeft ? 0 : site.width - p.porchWidth;
    const restX = p.porchLeft ? p.porchWidth : 0;
    const restW = site.width - p.porchWidth;
    const { lounge, passage } = middleBand(s, site, p, ground);
    if (ground) {
      const porch = s.room('porch', 'Car Porch', 'porch', porchX, 0, p.porchWidth, p.front);
      const diningW = restW - p.diningWidth >= 11 * FT ? p.diningWidth : 0;
      const drawingX = p.porchLeft ? restX : restX + diningW;
      const drawing = s.room('drawing', 'Drawing Room', 'drawing', drawingX, 0, restW - diningW, p.front);
      s.link(drawing, [porch], 42);
      s.link(lounge, [porch, drawing], 42);
      if (diningW > 0) {
        const diningX = p.porchLeft ? restX + restW - diningW : 0;
        const dining = s.room('dining', 'Dining', 'dining', diningX, 0, diningW, p.front);
        s.link(dining, [lounge, drawing], 36);
      }
    } else if (program.front) {
      const terrace = s.room('terrace', 'Terrace', 'terrace', porchX, 0, p.porchWidth, p.front);
      cell(s, bedroom, { x: restX, y: 0, w: restW, d: p.front }, p.frontCut, false, [lounge]);
      s.link(terrace, [lounge, s.id(`bed${bedroom}`)], 36);
      bedroom += 1;
    } else {
      const terrace = s.room('terrace', 'Terrace', 'terrace', 0, 0, site.width, p.front);
      s.link(terrace, [lounge], 36);
    }
    const widths = splitWidths(site.width, p.weights[program.level] ?? [1]);
    let x = 0;
    widths.forEach((w, index) => {
      const cut = p.cuts[program.level]?.[index] ?? p.frontCut;
      cell(s, bedroom, { x, y: rearY, w, d: rearD }, cut, true, [passage]);
      bedroom += 1;
      x += w;
    });
    return { level: program.level, rooms: s.rooms, links: s.links };
  });
}
