import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { LiftError } from '../../contract/errors.js';
import { writeFileAtomic } from '../../rungs/file/atomic.js';
import { LayoutParamsSchema } from './layout.js';
import { PLAN_FILE_HINT } from './plan-file-hint.js';

/** The plan file is the hand-off between the drafting, 3D and building-model tools; bump on any change. */
export const PLAN_FILE_VERSION = 1;
export const PLAN_FILE_FORMAT = 'lift.house-plan';

export const ROOM_KINDS = [
  'porch',
  'drawing',
  'dining',
  'kitchen',
  'lounge',
  'stairs',
  'passage',
  'bedroom',
  'bath',
  'dress',
  'terrace',
] as const;
export type RoomKind = (typeof ROOM_KINDS)[number];

/** Inches, from the plot's left corner on the road (x along the road, y back from it). */
const Inches = z.number().min(-1).max(2400);
const Id = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/)
  .describe('room, door or window id');

export const OUTSIDE = 'outside';

export const RoomSchema = z.strictObject({
  id: Id,
  name: z.string().min(1).max(60),
  kind: z.enum(ROOM_KINDS),
  x: Inches,
  y: Inches,
  w: Inches.positive(),
  d: Inches.positive(),
});
export type Room = z.infer<typeof RoomSchema>;

/** A door sits on the wall line between two rooms (or a room and outside), centred at (x, y). */
export const DoorSchema = z.strictObject({
  id: Id,
  between: z.tuple([Id, Id]).describe('the two rooms it joins; "outside" for the street side'),
  x: Inches,
  y: Inches,
  along: z.enum(['x', 'y']).describe('direction of the wall it sits in'),
  width: Inches.positive(),
});
export type Door = z.infer<typeof DoorSchema>;

export const WindowSchema = z.strictObject({
  id: Id,
  room: Id,
  x: Inches,
  y: Inches,
  along: z.enum(['x', 'y']),
  width: Inches.positive(),
});
export type Window = z.infer<typeof WindowSchema>;

export const StoreySchema = z.strictObject({
  level: z.number().int().min(0).max(3),
  name: z.string().min(1).max(40),
  height: Inches.positive().describe('floor to floor, inches'),
  rooms: z.array(RoomSchema).min(1).max(40),
  doors: z.array(DoorSchema).max(80),
  windows: z.array(WindowSchema).max(80),
});
export type Storey = z.infer<typeof StoreySchema>;

export const SheetSchema = z.strictObject({
  paper: z.enum(['A4', 'A3', 'A2', 'A1', 'A0']),
  orientation: z.literal('landscape'),
  scale: z.number().int().min(20).max(1000).describe('the n of 1:n'),
});
export type Sheet = z.infer<typeof SheetSchema>;

export const PlanFileSchema = z.strictObject({
  format: z.literal(PLAN_FILE_FORMAT),
  version: z.literal(PLAN_FILE_VERSION),
  house: z.string().regex(/^[a-z0-9][a-z0-9-]{0,79}$/),
  revision: z.number().int().min(0).max(999),
  units: z.literal('inch'),
  plot: z.strictObject({
    width: Inches.positive(),
    depth: Inches.positive(),
    as_given: z.string().min(1).max(60),
    marla: z.number().positive(),
  }),
  road_side: z.literal('south').describe('the plot edge at y = 0 faces the road'),
  walls: z.strictObject({ outer: Inches.positive(), inner: Inches.positive() }),
  program: z.strictObject({
    bedrooms: z.number().int().min(1).max(8),
    storeys: z.number().int().min(1).max(3),
  }),
  storeys: z.array(StoreySchema).min(1).max(3),
  front_door: Id,
  sheet: SheetSchema,
  search: z.strictObject({
    seed: z.number().int(),
    candidates: z.number().int(),
    seconds: z.number(),
    score: z.number(),
    params: LayoutParamsSchema,
  }),
  notes: z.array(z.string().max(300)).max(40),
});
export type PlanFile = z.infer<typeof PlanFileSchema>;

/** Reads and validates a plan file; a file of another format or version is refused with the reason. */
export async function readPlanFile(path: string): Promise<PlanFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new LiftError('NOT_FOUND', `No plan file at ${path}.`, { hint: PLAN_FILE_HINT, cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LiftError('BAD_INPUT', `plan_file: ${path} is not JSON.`, {
      hint: PLAN_FILE_HINT,
      cause: error,
    });
  }
  const parsed = PlanFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new LiftError(
      'BAD_INPUT',
      `plan_file: ${path} is not a version ${PLAN_FILE_VERSION} house plan: ${z.prettifyError(parsed.error)}`,
      {
        hint: PLAN_FILE_HINT,
      },
    );
  }
  return parsed.data;
}

export async function writePlanFile(path: string, plan: PlanFile): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(PlanFileSchema.parse(plan), null, 2)}\n`, { mode: 0o600 });
}
