import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import type { PlanFile } from './plan-file.js';

export const ScaleSchema = z
  .string()
  .regex(/^1:\d{2,4}$/)
  .describe('a drawing scale as drafters write it, such as "1:100" or "1:125"');

export const PaperSchema = z.enum(['A4', 'A3', 'A2', 'A1', 'A0']).describe('ISO sheet, landscape');

export const PlanFileInput = z
  .string()
  .min(1)
  .max(1000)
  .regex(/\.plan\.json$/)
  .describe('path of a plan file (files.plan of draw_house_plan, resize_room or set_sheet)');

export const RequestId = RequestIdSchema.optional();

export const PLAN_FILE_HINT =
  'Pass the plan file a drafting tool returned (files.plan of draw_house_plan, resize_room or set_sheet).';

export const scaleNumber = (scale: string): number => Number(scale.slice(2));

/**
 * The folder every Lift tool writes under: plan files are read only from there, so a model
 * cannot point a tool at any file on the machine.
 */
export function outputRoot(ctx: ToolContext): string {
  return dirname(ctx.outputDir);
}

/** Reads a plan file that lies inside the tools' output root. */
export async function readPlanInRoots(path: string, ctx: ToolContext): Promise<PlanFile> {
  const root = outputRoot(ctx);
  if (!isAbsolute(path)) {
    throw new LiftError('BAD_INPUT', `plan_file: '${path}' is not an absolute path.`, {
      hint: PLAN_FILE_HINT,
    });
  }
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    throw new LiftError('NOT_FOUND', `No plan file at ${path}.`, { hint: PLAN_FILE_HINT, cause: error });
  }
  const realRoot = await realpath(root).catch(() => resolve(root));
  const inside = relative(realRoot, real);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    throw new LiftError('BAD_INPUT', `plan_file: ${path} lies outside the tools' output folder ${root}.`, {
      hint: PLAN_FILE_HINT,
    });
  }
  const { readPlanFile } = await import('./plan-file.js');
  return readPlanFile(real);
}
