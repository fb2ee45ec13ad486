import { isAbsolute } from 'node:path';
import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import type { PathScope } from '../../contract/paths.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import type { PlanFile } from './plan-file.js';
import { PLAN_FILE_HINT } from './plan-file-hint.js';

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
  .describe('Absolute path of a .plan.json: files.plan of draw_house_plan, resize_room or set_sheet.');

export { PLAN_FILE_HINT };

export const RequestId = RequestIdSchema.optional();

export const scaleNumber = (scale: string): number => Number(scale.slice(2));

/**
 * Where a plan file may come from: Lift's output folder, where the drafting tools write it (no
 * roots of its own; the operator may add some in lift.config `settings.plan.roots`), so a model
 * cannot point a tool at any file on the machine. Declared by every tool that reads one.
 */
export const PLAN_FILE_SCOPE: PathScope = { family: 'plan', what: 'plan_file', roots: [] };

/** The plan file an input names, for the tool's `paths`. */
export const planFilePaths = (input: { plan_file: string }) => [
  { path: input.plan_file, scope: PLAN_FILE_SCOPE },
];

/** Reads a plan file that lies inside the plan tools' roots (Lift's output folder). */
export async function readPlanInRoots(path: string, ctx: ToolContext): Promise<PlanFile> {
  if (!isAbsolute(path)) {
    throw new LiftError('BAD_INPUT', `plan_file: '${path}' is not an absolute path.`, {
      hint: PLAN_FILE_HINT,
    });
  }
  const real = ctx.resolvePath(path, PLAN_FILE_SCOPE);
  const { readPlanFile } = await import('./plan-file.js');
  return readPlanFile(real);
}
