import type { DxfWriter as DxfWriterType } from '@tarikjabiri/dxf';
import { feetInches } from './geometry.js';
import { type Door, OUTSIDE, type PlanFile, type Room, type Storey } from './plan-file.js';
import { FT } from './program.js';
import { AROUND, drawingExtents, MARGIN_MM, MM_PER_INCH, PAPERS, STOREY_GAP, TITLE_MM } from './sheet.js';

type Dxf = typeof import('@tarikjabiri/dxf');

/** Layer names and colours (AutoCAD colour index); the read-back finds each kind of thing by its layer. */
export const LAYERS = {
  PLOT: 3,
  ROOMS: 7,
  WALLS: 8,
  DOORS: 1,
  WINDOWS: 5,
  TEXT: 7,
  DIMS: 6,
  FRAME: 7,
} as const;

/** Where storey `level` sits in model space (inches). */
export function storeyOrigin(plan: PlanFile, index: number): { x: number; y: number } {
  return { x: AROUND.left + index * (plan.plot.width + STOREY_GAP), y: AROUND.below };
}

/** Paper millimetres as model inches at the sheet's scale. */
const paperMm = (plan: PlanFile, mm: number) => (mm * plan.sheet.scale) / MM_PER_INCH;

class Drawing {
  constructor(
    readonly dxf: Dxf,
    readonly writer: DxfWriterType,
    readonly plan: PlanFile,
  ) {}

  p(x: number, y: number) {
    return this.dxf.point3d(x, y, 0);
  }

  rect(x: number, y: number, w: number, d: number, layerName: string): void {
    this.writer.addLWPolyline(
      [
        { point: { x, y } },
        { point: { x: x + w, y } },
        { point: { x: x + w, y: y + d } },
        { point: { x, y: y + d } },
      ],
      { flags: this.dxf.LWPolylineFlags.Closed, layerName },
    );
  }

  text(x: number, y: number, heightMm: number, value: string, layerName = 'TEXT'): void {
    const { TextHorizontalAlignment, TextVerticalAlignment } = this.dxf;
    this.writer.addText(this.p(x, y), paperMm(this.plan, heightMm), value, {
      layerName,
      horizontalAlignment: TextHorizontalAlignment.Center,
      verticalAlignment: TextVerticalAlignment.Middle,
      secondAlignmentPoint: this.p(x, y),
    });
  }

  dimension(from: [number, number], to: [number, number], offset: number, inches: number): void {
    const horizontal = from[1] === to[1];
    this.writer.addLinearDim(this.p(...from), this.p(...to), {
      offset,
      angle: horizontal ? 0 : 90,
      text: feetInches(inches),
      layerName: 'DIMS',
    });
    // The figure and architectural ticks as plain entities too, for viewers that draw dimensions small.
    const [dx, dy] = horizontal ? [0, offset] : [offset, 0];
    const tick = paperMm(this.plan, 1.2);
    for (const [x, y] of [from, to]) {
      this.writer.addLine(this.p(x + dx - tick, y + dy - tick), this.p(x + dx + tick, y + dy + tick), {
        layerName: 'DIMS',
      });
    }
    const [mx, my] = [(from[0] + to[0]) / 2 + dx, (from[1] + to[1]) / 2 + dy];
    const lift = paperMm(this.plan, 2);
    const { TextHorizontalAlignment, TextVerticalAlignment } = this.dxf;
    const at = horizontal ? this.p(mx, my + lift) : this.p(mx - lift, my);
    this.writer.addText(at, paperMm(this.plan, 2), feetInches(inches), {
      layerName: 'DIMS',
      rotation: horizontal ? 0 : 90,
      horizontalAlignment: TextHorizontalAlignment.Center,
      verticalAlignment: TextVerticalAlignment.Middle,
      secondAlignmentPoint: at,
    });
  }

  room(room: Room, ox: number, oy: number): void {
    const x = ox + room.x;
    const y = oy + room.y;
    this.rect(x, y, room.w, room.d, 'ROOMS');
    const inset = this.plan.walls.inner / 2;
    if (room.kind !== 'porch' && room.kind !== 'terrace') {
      this.rect(x + inset, y + inset, room.w - 2 * inset, room.d - 2 * inset, 'WALLS');
    }
    const cx = x + room.w / 2;
    const cy = y + room.d / 2;
    const label = room.kind === 'passage' ? room.name : room.name.toUpperCase();
    const size = `${feetInches(room.w)} x ${feetInches(room.d)}`;
    // Letters are about 0.8 of their height wide: keep both lines inside the room's width on paper.
    const widthMm = ((room.w - 2 * inset) * MM_PER_INCH) / this.plan.sheet.scale;
    const labelMm = Math.min(2.2, widthMm / (label.length * 0.85));
    const sizeMm = Math.min(1.6, widthMm / (size.length * 0.85));
    this.text(cx, cy + paperMm(this.plan, sizeMm * 0.9), labelMm, label);
    this.text(cx, cy - paperMm(this.plan, labelMm * 0.9), sizeMm, size);
  }

  door(door: Door, storey: Storey, ox: number, oy: number): void {
    const x = ox + door.x;
    const y = oy + door.y;
    const half = door.width / 2;
    const [ax, ay, bx, by] = door.along === 'x' ? [x - half, y, x + half, y] : [x, y - half, x, y + half];
    if (door.between[0] === OUTSIDE) {
      this.writer.addLine(this.p(ax, ay), this.p(bx, by), { layerName: 'DOORS' });
      return;
    }
    // The leaf swings into the first room of the pair, hinged at the low end of the opening.
    const into = storey.rooms.find((room) => room.id === door.between[0]);
    const sign =
      into && (door.along === 'x' ? oy + into.y + into.d / 2 < y : ox + into.x + into.w / 2 < x) ? -1 : 1;
    const [lx, ly] = door.along === 'x' ? [ax, ay + sign * door.width] : [ax + sign * door.width, ay];
    this.writer.addLine(this.p(ax, ay), this.p(lx, ly), { layerName: 'DOORS' });
    // DXF arcs run counter-clockwise: start at whichever of leaf and jamb the quarter turn leaves from.
    const leaf = (Math.atan2(ly - ay, lx - ax) * 180) / Math.PI;
    const jamb = (Math.atan2(by - ay, bx - ax) * 180) / Math.PI;
    const [from, to] = Math.round((jamb - leaf + 360) % 360) === 90 ? [leaf, jamb] : [jamb, leaf];
    this.writer.addArc(this.p(ax, ay), door.width, from, to, { layerName: 'DOORS' });
  }

  storey(storey: Storey, index: number): void {
    const { x: ox, y: oy } = storeyOrigin(this.plan, index);
    const { width, depth } = this.plan.plot;
    this.rect(ox, oy, width, depth, 'PLOT');
    for (const room of storey.rooms) this.room(room, ox, oy);
    for (const door of storey.doors) this.door(door, storey, ox, oy);
    const t = this.plan.walls.inner / 2;
    for (const window of storey.windows) {
      for (const shift of [-t, 0, t]) {
        const half = window.width / 2;
        const [ax, ay, bx, by] =
          window.along === 'x'
            ? [window.x - half, window.y + shift, window.x + half, window.y + shift]
            : [window.x + shift, window.y - half, window.x + shift, window.y + half];
        this.writer.addLine(this.p(ox + ax, oy + ay), this.p(ox + bx, oy + by), { layerName: 'WINDOWS' });
      }
    }
    this.dimension([ox, oy], [ox + width, oy], -4 * FT, width);
    this.dimension([ox, oy], [ox, oy + depth], -4 * FT, depth);
    this.text(ox + width / 2, oy + depth + 3 * FT, 3.5, `${storey.name.toUpperCase()} PLAN`);
    this.text(ox + width / 2, oy - 8 * FT, 3, 'ROAD');
  }

  frame(): void {
    const [paperW, paperH] = PAPERS[this.plan.sheet.paper];
    const extents = drawingExtents(this.plan);
    const frameW = paperMm(this.plan, paperW - 2 * MARGIN_MM);
    const frameH = paperMm(this.plan, paperH - 2 * MARGIN_MM);
    const title = paperMm(this.plan, TITLE_MM);
    const drawH = frameH - title;
    const fx = extents.width / 2 - frameW / 2;
    const fy = extents.height / 2 - drawH / 2 - title;
    this.rect(fx, fy, frameW, frameH, 'FRAME');
    this.writer.addLine(this.p(fx, fy + title), this.p(fx + frameW, fy + title), { layerName: 'FRAME' });
    const { plot, program, sheet, revision } = this.plan;
    const lines = [
      `HOUSE PLAN: ${feetInches(plot.width)} x ${feetInches(plot.depth)} PLOT (${plot.marla} MARLA), ${plot.as_given.toUpperCase()}`,
      `${program.bedrooms} BEDROOMS, ${program.storeys} STOREY(S). SCALE 1:${sheet.scale} ON ${sheet.paper}. DIMENSIONS IN FEET AND INCHES.`,
      `REVISION v${revision}. DRAWN BY LIFT.`,
    ];
    lines.forEach((line, index) => {
      this.text(fx + frameW / 2, fy + title - paperMm(this.plan, 9 + index * 9), 3, line, 'FRAME');
    });
  }
}

/** The plan as DXF text, in inches, with the sheet frame drawn at the sheet's scale. */
export async function planToDxf(plan: PlanFile): Promise<string> {
  const dxf = await import('@tarikjabiri/dxf');
  const writer = new dxf.DxfWriter();
  writer.setUnits(dxf.Units.Inches);
  const [paperW, paperH] = PAPERS[plan.sheet.paper];
  // LibreCAD reads the paper from the plot limits, in drawing units.
  writer.setVariable('$PLIMMIN', { 10: 0, 20: 0 });
  writer.setVariable('$PLIMMAX', { 10: paperW / MM_PER_INCH, 20: paperH / MM_PER_INCH });
  for (const [name, colour] of Object.entries(LAYERS)) writer.addLayer(name, colour, 'CONTINUOUS');
  // Dimension sizes in paper millimetres, in the style table (AutoCAD) and the header (LibreCAD).
  const dimension = { DIMTXT: 2, DIMASZ: 1.8, DIMEXO: 1, DIMEXE: 1, DIMGAP: 0.8 } as const;
  const style = writer.document.dimStyleStandard;
  for (const [name, mm] of Object.entries(dimension)) {
    style[name as keyof typeof dimension] = paperMm(plan, mm);
    writer.setVariable(`$${name}`, { 40: paperMm(plan, mm) });
  }
  const drawing = new Drawing(dxf, writer, plan);
  plan.storeys.forEach((storey, index) => {
    drawing.storey(storey, index);
  });
  drawing.frame();
  return writer.stringify();
}
