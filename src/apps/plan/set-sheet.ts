import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import { PlanOutput } from './draw-house-plan.js';
import {
  PaperSchema,
  PLAN_FILE_HINT,
  PlanFileInput,
  planFilePaths,
  RequestId,
  readPlanInRoots,
  ScaleSchema,
  scaleNumber,
} from './inputs.js';
import { LIBRECAD_HINT } from './librecad.js';

export const setSheet = defineTool({
  name: 'set_sheet',
  title: 'Set the sheet of a house plan',
  description:
    'Redraws a saved house plan on another sheet: a scale ("1:100") and/or a paper (A4 to A0, landscape). Without a scale it takes the most detailed one that fits. A scale that does not fit is refused with the sizes (REQUEST_REFUSED: "at 1:100 the plan needs 167 x 258 mm and A3 has room for 390 x 231") and the scale or paper that would fit; nothing is changed. Returns the new version\'s files and checks.',
  group: 'cad',
  rung: 'file',
  input: z
    .strictObject({
      plan_file: PlanFileInput,
      scale: ScaleSchema.optional(),
      paper: PaperSchema.optional(),
      request_id: RequestId,
    })
    .refine(
      (input) => input.scale !== undefined || input.paper !== undefined,
      'give a scale, a paper, or both',
    ),
  output: PlanOutput,
  errors: {
    NOT_FOUND: { hint: PLAN_FILE_HINT },
    REQUEST_REFUSED: { hint: 'Use the scale or paper the message names; the plan was not changed.' },
    PROGRAM_FAILED: { hint: LIBRECAD_HINT },
  },
  effect: {
    class: 'reversible',
    repeat: 'Each call writes a new version (v1, v2...); the source plan is never changed.',
  },
  timeout: {
    deadlineMs: 60_000,
    settle: 'Look in the output folder set_sheet/<house>/ for the newest vN.plan.json.',
  },
  paths: planFilePaths,
  example: { plan_file: '/home/me/.lift/out/draw_house_plan/10-marla-3-bed/v0.plan.json', scale: '1:100' },
  async run(input, ctx) {
    const { describePlan, draft, planFields } = await import('./draft.js');
    const { nextRevision } = await import('./revision.js');
    const { chooseSheet } = await import('./sheet.js');
    const source = await readPlanInRoots(input.plan_file, ctx);
    const paper = input.paper ?? source.sheet.paper;
    const sheet = chooseSheet(
      source,
      paper,
      input.scale === undefined ? undefined : scaleNumber(input.scale),
    );
    if (sheet.scale === source.sheet.scale && sheet.paper === source.sheet.paper) {
      throw new LiftError(
        'REQUEST_REFUSED',
        `The plan is already drawn at 1:${sheet.scale} on ${sheet.paper}.`,
        {
          hint: 'Ask for another scale or paper, or use the files of the plan as they are.',
        },
      );
    }
    const plan = { ...source, sheet, revision: await nextRevision(ctx, source) };
    const drafted = await draft(plan, ctx);
    return {
      fields: planFields(plan, drafted),
      summary: `Redrawn from 1:${source.sheet.scale} on ${source.sheet.paper}. ${describePlan(plan, drafted.checks)}`,
      files: drafted.files,
      checks: drafted.checks,
      verifiedBy: 'dxf-parser read the saved DXF back; poppler measured the printed scale on the new sheet',
    };
  },
});
