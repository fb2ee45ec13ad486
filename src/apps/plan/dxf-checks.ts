import type { Check } from '../../contract/envelope.js';
import { LAYERS, storeyOrigin } from './dxf-drawing.js';
import { OUTSIDE, type PlanFile } from './plan-file.js';

/** What the independent parser gives back, reduced to the fields the checks read. */
interface Point {
  x: number;
  y: number;
}
interface Entity {
  type: string;
  layer?: string;
  vertices?: Point[];
  shape?: boolean;
  startPoint?: Point;
  endPoint?: Point;
  text?: string;
  center?: Point;
  radius?: number;
  linearOrAngularPoint1?: Point;
  linearOrAngularPoint2?: Point;
}
interface ParsedDxf {
  header: Record<string, unknown>;
  tables?: { layer?: { layers?: Record<string, unknown> } };
  entities: Entity[];
}

const TOLERANCE = 0.5;
const close = (a: number, b: number) => Math.abs(a - b) <= TOLERANCE;
const same = (a: Point | undefined, x: number, y: number) =>
  a !== undefined && close(a.x, x) && close(a.y, y);

/** Parses DXF text with dxf-parser, which shares no code with the writer. */
export async function parseDxf(text: string): Promise<ParsedDxf> {
  const module = await import('dxf-parser');
  const Parser = module.DxfParser ?? module.default;
  return new Parser().parseSync(text) as unknown as ParsedDxf;
}

function isRect(entity: Entity, x: number, y: number, w: number, d: number): boolean {
  const v = entity.vertices ?? [];
  if (entity.type !== 'LWPOLYLINE' || !entity.shape || v.length !== 4) return false;
  const corners: Array<[number, number]> = [
    [x, y],
    [x + w, y],
    [x + w, y + d],
    [x, y + d],
  ];
  return corners.every(([cx, cy]) => v.some((point) => same(point, cx, cy)));
}

const on = (parsed: ParsedDxf, layer: keyof typeof LAYERS) =>
  parsed.entities.filter((entity) => entity.layer === layer);

function check(name: string, problems: string[], good: string): Check {
  return {
    name,
    passed: problems.length === 0,
    detail:
      problems.length === 0
        ? good
        : `${problems.slice(0, 6).join('; ')}${problems.length > 6 ? `; and ${problems.length - 6} more` : ''}.`,
  };
}

/** Nine read-backs of the saved DXF: units, layers, plot, rooms, labels, doors, windows, dimensions, title. */
export function dxfChecks(parsed: ParsedDxf, plan: PlanFile): Check[] {
  const units = parsed.header.$INSUNITS;
  const layers = Object.keys(parsed.tables?.layer?.layers ?? {});
  const missingLayers = Object.keys(LAYERS).filter((layer) => !layers.includes(layer));
  const plots: string[] = [];
  const rooms: string[] = [];
  const labels: string[] = [];
  const doors: string[] = [];
  const windows: string[] = [];
  const dims: string[] = [];
  const texts = on(parsed, 'TEXT');
  const lines = (layer: 'DOORS' | 'WINDOWS') => on(parsed, layer).filter((entity) => entity.type === 'LINE');
  let roomCount = 0;
  plan.storeys.forEach((storey, index) => {
    const o = storeyOrigin(plan, index);
    if (!on(parsed, 'PLOT').some((entity) => isRect(entity, o.x, o.y, plan.plot.width, plan.plot.depth)))
      plots.push(storey.name);
    for (const room of storey.rooms) {
      roomCount += 1;
      const [x, y] = [o.x + room.x, o.y + room.y];
      if (!on(parsed, 'ROOMS').some((entity) => isRect(entity, x, y, room.w, room.d))) rooms.push(room.name);
      const label = room.kind === 'passage' ? room.name : room.name.toUpperCase();
      const found = texts.some((entity) => {
        const at = entity.endPoint ?? entity.startPoint;
        return (
          entity.text === label &&
          at !== undefined &&
          at.x > x &&
          at.x < x + room.w &&
          at.y > y &&
          at.y < y + room.d
        );
      });
      if (!found) labels.push(room.name);
    }
    for (const door of storey.doors) {
      const half = door.width / 2;
      const [hx, hy] =
        door.along === 'x' ? [o.x + door.x - half, o.y + door.y] : [o.x + door.x, o.y + door.y - half];
      const leaf = lines('DOORS').some((entity) => same(entity.vertices?.[0], hx, hy));
      const swing =
        door.between[0] === OUTSIDE ||
        on(parsed, 'DOORS').some(
          (entity) =>
            entity.type === 'ARC' && same(entity.center, hx, hy) && close(entity.radius ?? 0, door.width),
        );
      if (!leaf || !swing) doors.push(`${door.id} (${door.between.join(' - ')})`);
    }
    for (const window of storey.windows) {
      const at = lines('WINDOWS').filter((entity) => {
        const [a, b] = entity.vertices ?? [];
        if (!a || !b) return false;
        const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
        const length = Math.hypot(b.x - a.x, b.y - a.y);
        const across =
          window.along === 'x' ? Math.abs(mid.y - (o.y + window.y)) : Math.abs(mid.x - (o.x + window.x));
        const run = window.along === 'x' ? mid.x - (o.x + window.x) : mid.y - (o.y + window.y);
        return close(length, window.width) && Math.abs(run) <= TOLERANCE && across <= plan.walls.inner;
      });
      if (at.length < 3) windows.push(window.id);
    }
    const measured = parsed.entities
      .filter(
        (entity) =>
          entity.type === 'DIMENSION' && entity.linearOrAngularPoint1 && entity.linearOrAngularPoint2,
      )
      .map((entity) => {
        const [a, b] = [entity.linearOrAngularPoint1!, entity.linearOrAngularPoint2!];
        return { a, length: Math.hypot(b.x - a.x, b.y - a.y) };
      });
    for (const [what, length] of [
      ['width', plan.plot.width],
      ['depth', plan.plot.depth],
    ] as const) {
      if (!measured.some((dim) => same(dim.a, o.x, o.y) && close(dim.length, length)))
        dims.push(`${storey.name} plot ${what}`);
    }
  });
  const doorCount = plan.storeys.reduce((n, storey) => n + storey.doors.length, 0);
  const windowCount = plan.storeys.reduce((n, storey) => n + storey.windows.length, 0);
  const scaleText = `SCALE 1:${plan.sheet.scale} ON ${plan.sheet.paper}`;
  const title = on(parsed, 'FRAME').some(
    (entity) => entity.type === 'TEXT' && entity.text?.includes(scaleText),
  );
  return [
    check(
      'dxf_units_inches',
      units === 1 ? [] : [`$INSUNITS is ${String(units)}, not 1 (inches)`],
      'The DXF declares inches ($INSUNITS 1), so AutoCAD inserts it at true size.',
    ),
    check(
      'dxf_layers',
      missingLayers.map((layer) => `no layer ${layer}`),
      `All ${Object.keys(LAYERS).length} layers are defined.`,
    ),
    check(
      'dxf_plot_boundary',
      plots.map((name) => `no plot boundary on ${name}`),
      `The plot boundary is a closed ${plan.plot.width} x ${plan.plot.depth} in polyline on every storey.`,
    ),
    check(
      'dxf_rooms',
      rooms.map((name) => `no outline for ${name}`),
      `All ${roomCount} rooms are closed outlines of their planned size.`,
    ),
    check(
      'dxf_room_labels',
      labels.map((name) => `no label inside ${name}`),
      `Every room's name sits inside its outline.`,
    ),
    check(
      'dxf_doors',
      doors.map((door) => `no leaf or swing for ${door}`),
      `All ${doorCount} doors have their leaf and swing (gates their line) in place.`,
    ),
    check(
      'dxf_windows',
      windows.map((id) => `no window lines for ${id}`),
      `All ${windowCount} windows are drawn in their walls.`,
    ),
    check(
      'dxf_dimensions',
      dims.map((dim) => `no dimension for the ${dim}`),
      'The plot width and depth are dimensioned on every storey and measure true.',
    ),
    check(
      'dxf_title_block',
      title ? [] : [`no title text with '${scaleText}'`],
      `The title block states ${scaleText}.`,
    ),
  ];
}
