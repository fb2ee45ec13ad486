import type { PlanFile } from '../plan/plan-file.js';
import { type Line, wallLines } from '../plan/walls.js';

/** Metres per inch: the model is written in SI units. */
const M = 0.0254;
const SLAB = 0.15;
const DOOR_HEAD = 84 * M;
const WINDOW_SILL = 36 * M;
const WINDOW_HEAD = 84 * M;

/** How many elements of each type the model holds: what the read-back must find. */
export type ElementCounts = Record<
  | 'IfcBuildingStorey'
  | 'IfcWall'
  | 'IfcSlab'
  | 'IfcSpace'
  | 'IfcDoor'
  | 'IfcWindow'
  | 'IfcOpeningElement'
  | 'IfcStair',
  number
>;

export interface WrittenModel {
  bytes: Uint8Array;
  counts: ElementCounts;
  /** Wall volume the plan implies (walls less their openings), cubic metres. */
  wallVolume: number;
  plot: { width: number; depth: number };
  /** Thickness of the outer walls, metres. */
  outerWall: number;
}

type WebIfc = typeof import('web-ifc');
// biome-ignore lint/suspicious/noExplicitAny: web-ifc's entity classes take any of their schema's line objects
type Line3 = any;

export type IfcApi = InstanceType<WebIfc['IfcAPI']>;

/** Loads web-ifc and its WebAssembly once; tools share the instance through ctx.service. */
export async function startWebIfc(): Promise<IfcApi> {
  const W: WebIfc = await import('web-ifc');
  const api = new W.IfcAPI();
  await api.Init(undefined, true);
  return api;
}

/** Writes the plan as an IFC4 model with web-ifc: storeys, walls with openings, doors, windows, spaces, slabs, stairs. */
export async function writeIfc(plan: PlanFile, api: IfcApi): Promise<WrittenModel> {
  const W: WebIfc = await import('web-ifc');
  const { IFC4 } = W;
  const model = api.CreateModel({
    schema: W.Schemas.IFC4,
    name: plan.house,
    authors: ['Lift'],
    organizations: ['Lift'],
  });
  const written: Line3[] = [];
  const keep = <T extends Line3>(line: T): T => {
    written.push(line);
    return line;
  };
  const gid = () => api.CreateIFCGloballyUniqueId(model);
  const len = (v: number) => new IFC4.IfcLengthMeasure(v);
  const label = (text: string) => new IFC4.IfcLabel(text);
  const point = (x: number, y: number, z?: number) =>
    new IFC4.IfcCartesianPoint(z === undefined ? [len(x), len(y)] : [len(x), len(y), len(z)]);
  const direction = (x: number, y: number, z: number) =>
    new IFC4.IfcDirection([new IFC4.IfcReal(x), new IFC4.IfcReal(y), new IFC4.IfcReal(z)]);
  const axes = (x: number, y: number, z: number, alongY = false) =>
    new IFC4.IfcAxis2Placement3D(
      point(x, y, z),
      alongY ? direction(0, 0, 1) : null,
      alongY ? direction(0, 1, 0) : null,
    );
  const place = (relative: Line3 | null, x: number, y: number, z: number, alongY = false) =>
    new IFC4.IfcLocalPlacement(relative, axes(x, y, z, alongY));
  const context = new IFC4.IfcGeometricRepresentationContext(
    null,
    label('Model'),
    new IFC4.IfcDimensionCount(3),
    new IFC4.IfcReal(1e-5),
    axes(0, 0, 0),
    null,
  );
  /** A box extruded up from a w x d rectangle whose corner sits at the local origin (or centred across, for walls). */
  const box = (w: number, d: number, h: number, centredAcross = false) =>
    new IFC4.IfcProductDefinitionShape(null, null, [
      new IFC4.IfcShapeRepresentation(context, label('Body'), label('SweptSolid'), [
        new IFC4.IfcExtrudedAreaSolid(
          new IFC4.IfcRectangleProfileDef(
            IFC4.IfcProfileTypeEnum.AREA,
            null,
            new IFC4.IfcAxis2Placement2D(point(w / 2, centredAcross ? 0 : d / 2), null),
            new IFC4.IfcPositiveLengthMeasure(w),
            new IFC4.IfcPositiveLengthMeasure(d),
          ),
          axes(0, 0, 0),
          direction(0, 0, 1),
          new IFC4.IfcPositiveLengthMeasure(h),
        ),
      ]),
    ]);
  const units = new IFC4.IfcUnitAssignment([
    new IFC4.IfcSIUnit(IFC4.IfcUnitEnum.LENGTHUNIT, null, IFC4.IfcSIUnitName.METRE),
    new IFC4.IfcSIUnit(IFC4.IfcUnitEnum.AREAUNIT, null, IFC4.IfcSIUnitName.SQUARE_METRE),
    new IFC4.IfcSIUnit(IFC4.IfcUnitEnum.VOLUMEUNIT, null, IFC4.IfcSIUnitName.CUBIC_METRE),
  ]);
  const project = keep(
    new IFC4.IfcProject(gid(), null, label(plan.house), null, null, null, null, [context], units),
  );
  const sitePlace = place(null, 0, 0, 0);
  const site = keep(
    new IFC4.IfcSite(
      gid(),
      null,
      label(`Plot ${plan.plot.as_given}`),
      null,
      null,
      sitePlace,
      null,
      null,
      IFC4.IfcElementCompositionEnum.ELEMENT,
      null,
      null,
      null,
      null,
      null,
    ),
  );
  const buildingPlace = place(sitePlace, 0, 0, 0);
  const building = keep(
    new IFC4.IfcBuilding(
      gid(),
      null,
      label('House'),
      null,
      null,
      buildingPlace,
      null,
      null,
      IFC4.IfcElementCompositionEnum.ELEMENT,
      null,
      null,
      null,
    ),
  );
  keep(new IFC4.IfcRelAggregates(gid(), null, null, null, project, [site]));
  keep(new IFC4.IfcRelAggregates(gid(), null, null, null, site, [building]));
  const counts: ElementCounts = {
    IfcBuildingStorey: 0,
    IfcWall: 0,
    IfcSlab: 0,
    IfcSpace: 0,
    IfcDoor: 0,
    IfcWindow: 0,
    IfcOpeningElement: 0,
    IfcStair: 0,
  };
  const height = (plan.storeys[0]?.height ?? 132) * M;
  const houseDepth = Math.max(...(plan.storeys[0]?.rooms ?? []).map((room) => room.y + room.d));
  const width = plan.plot.width * M;
  let wallVolume = 0;
  const storeys: Line3[] = [];
  for (const storey of plan.storeys) {
    const z0 = storey.level * height;
    const storeyPlace = place(buildingPlace, 0, 0, z0);
    const ifcStorey = keep(
      new IFC4.IfcBuildingStorey(
        gid(),
        null,
        label(storey.name),
        null,
        null,
        storeyPlace,
        null,
        null,
        IFC4.IfcElementCompositionEnum.ELEMENT,
        len(z0),
      ),
    );
    storeys.push(ifcStorey);
    counts.IfcBuildingStorey += 1;
    const contained: Line3[] = [];
    contained.push(
      keep(
        new IFC4.IfcSlab(
          gid(),
          null,
          label(`${storey.name} floor`),
          null,
          null,
          place(storeyPlace, 0, 0, -SLAB),
          box(width, houseDepth * M, SLAB),
          null,
          IFC4.IfcSlabTypeEnum.FLOOR,
        ),
      ),
    );
    counts.IfcSlab += 1;
    const spaces = storey.rooms.map((room) =>
      keep(
        new IFC4.IfcSpace(
          gid(),
          null,
          label(room.id),
          null,
          null,
          place(storeyPlace, room.x * M, room.y * M, 0),
          box(room.w * M, room.d * M, height - SLAB),
          label(room.name),
          IFC4.IfcElementCompositionEnum.ELEMENT,
          room.kind === 'porch' || room.kind === 'terrace'
            ? IFC4.IfcSpaceTypeEnum.EXTERNAL
            : IFC4.IfcSpaceTypeEnum.INTERNAL,
          null,
        ),
      ),
    );
    counts.IfcSpace += spaces.length;
    keep(new IFC4.IfcRelAggregates(gid(), null, null, null, ifcStorey, spaces));
    const stairs = storey.rooms.find((room) => room.kind === 'stairs');
    if (stairs) {
      contained.push(
        keep(
          new IFC4.IfcStair(
            gid(),
            null,
            label('Stairs'),
            null,
            null,
            place(storeyPlace, stairs.x * M, stairs.y * M, 0),
            box(stairs.w * M, stairs.d * M, height),
            null,
            IFC4.IfcStairTypeEnum.HALF_TURN_STAIR,
          ),
        ),
      );
      counts.IfcStair += 1;
    }
    for (const line of wallLines(storey.rooms, houseDepth, plan.plot.width)) {
      const thickness = (line.outer ? plan.walls.outer : plan.walls.inner) * M;
      const length = (line.to - line.from) * M;
      const alongY = line.along === 'y';
      const wallPlace = alongY
        ? place(storeyPlace, line.at * M, line.from * M, 0, true)
        : place(storeyPlace, line.from * M, line.at * M, 0);
      const wall = keep(
        new IFC4.IfcWall(
          gid(),
          null,
          label(`Wall ${storey.level} ${line.along}${Math.round(line.at)}`),
          null,
          null,
          wallPlace,
          box(length, thickness, height, true),
          null,
          IFC4.IfcWallTypeEnum.STANDARD,
        ),
      );
      contained.push(wall);
      counts.IfcWall += 1;
      wallVolume += length * thickness * height;
      for (const opening of openingsOn(line, storey)) {
        const w = opening.width * M;
        const h = opening.top - opening.bottom;
        wallVolume -= w * thickness * h;
        const openingPlace = place(
          wallPlace,
          (opening.centre - opening.width / 2 - line.from) * M,
          0,
          opening.bottom,
        );
        const hole = keep(
          new IFC4.IfcOpeningElement(
            gid(),
            null,
            label(`Opening ${opening.id}`),
            null,
            null,
            openingPlace,
            box(w, thickness + 0.1, h, true),
            null,
            IFC4.IfcOpeningElementTypeEnum.OPENING,
          ),
        );
        counts.IfcOpeningElement += 1;
        keep(new IFC4.IfcRelVoidsElement(gid(), null, null, null, wall, hole));
        const fillPlace = place(openingPlace, 0, 0, 0);
        const size = [new IFC4.IfcPositiveLengthMeasure(h), new IFC4.IfcPositiveLengthMeasure(w)] as const;
        const filling =
          opening.kind === 'door'
            ? new IFC4.IfcDoor(
                gid(),
                null,
                label(opening.id === plan.front_door ? 'Front door' : `Door ${opening.id}`),
                null,
                null,
                fillPlace,
                box(w, 0.05, h, true),
                null,
                size[0],
                size[1],
                IFC4.IfcDoorTypeEnum.DOOR,
                IFC4.IfcDoorTypeOperationEnum.SINGLE_SWING_LEFT,
                null,
              )
            : new IFC4.IfcWindow(
                gid(),
                null,
                label(`Window ${opening.id}`),
                null,
                null,
                fillPlace,
                box(w, 0.03, h, true),
                null,
                size[0],
                size[1],
                IFC4.IfcWindowTypeEnum.WINDOW,
                IFC4.IfcWindowTypePartitioningEnum.SINGLE_PANEL,
                null,
              );
        keep(filling);
        counts[opening.kind === 'door' ? 'IfcDoor' : 'IfcWindow'] += 1;
        contained.push(filling);
        keep(new IFC4.IfcRelFillsElement(gid(), null, null, null, hole, filling));
      }
    }
    if (storey.level === plan.storeys.length - 1) {
      contained.push(
        keep(
          new IFC4.IfcSlab(
            gid(),
            null,
            label('Roof'),
            null,
            null,
            place(storeyPlace, 0, 0, height),
            box(width, houseDepth * M, SLAB),
            null,
            IFC4.IfcSlabTypeEnum.ROOF,
          ),
        ),
      );
      counts.IfcSlab += 1;
    }
    keep(new IFC4.IfcRelContainedInSpatialStructure(gid(), null, null, null, contained, ifcStorey));
  }
  keep(new IFC4.IfcRelAggregates(gid(), null, null, null, building, storeys));
  for (const line of written) api.WriteLine(model, line);
  const bytes = api.SaveModel(model);
  api.CloseModel(model);
  return {
    bytes,
    counts,
    wallVolume,
    plot: { width, depth: plan.plot.depth * M },
    outerWall: plan.walls.outer * M,
  };
}

interface Opening {
  id: string;
  kind: 'door' | 'window';
  centre: number;
  width: number;
  bottom: number;
  top: number;
}

/** The doors (not the street gate) and windows that sit on a wall line. */
function openingsOn(line: Line, storey: PlanFile['storeys'][number]): Opening[] {
  const at = (item: { along: string; x: number; y: number }) =>
    item.along === line.along && Math.abs((line.along === 'x' ? item.y : item.x) - line.at) < 0.01;
  const centre = (item: { x: number; y: number }) => (line.along === 'x' ? item.x : item.y);
  const within = (item: { x: number; y: number }) => centre(item) > line.from && centre(item) < line.to;
  return [
    ...storey.doors
      .filter((door) => door.between[0] !== 'outside' && at(door) && within(door))
      .map((door) => ({
        id: door.id,
        kind: 'door' as const,
        centre: centre(door),
        width: door.width,
        bottom: 0,
        top: DOOR_HEAD,
      })),
    ...storey.windows
      .filter((window) => at(window) && within(window))
      .map((window) => ({
        id: window.id,
        kind: 'window' as const,
        centre: centre(window),
        width: window.width,
        bottom: WINDOW_SILL,
        top: WINDOW_HEAD,
      })),
  ];
}
