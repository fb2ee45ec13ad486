import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import { PaperSchema, RequestId, ScaleSchema, scaleNumber } from './inputs.js';
import { LIBRECAD_HINT } from './librecad.js';
import { PLOT_HINT, parsePlot } from './plot.js';
import { BEDROOM_HINT } from './program.js';
// Declares the events this file emits, with their words (a run log's readers find them there).
import './events.js';

/** The search keeps the best plan it finds in this time. */
export const SEARCH_BUDGET_MS = 2500;

/** A seed from the request itself, so the same request gives the same plan. */
function seedOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash >>> 0;
}

export const PlanOutput = z.strictObject({
  plan_file: z.string().describe('Absolute path of the .plan.json the other plan tools take.'),
  dxf: z.string().describe('Absolute path of the DXF, in inches.'),
  pdf: z.string().describe('Absolute path of the PDF printed at scale.'),
  png: z.string().describe('Absolute path of the PNG picture.'),
  revision: z.number().int().describe('Version: 0 when drawn, one more per change.'),
  plot: z
    .strictObject({
      width_ft: z.number().describe('Along the road.'),
      depth_ft: z.number().describe('Back from the road.'),
      marla: z.number().describe('Area in marla (225 sq ft each).'),
    })
    .describe('The plot in feet.'),
  sheet: z.string().describe('Scale and paper, e.g. "1:100 on A3".'),
  rooms: z.array(z.string()).describe('Room names, ground floor first.'),
  notes: z.array(z.string()).describe('Advice on the plan, e.g. a room with no outside wall.'),
  search: z
    .strictObject({
      candidates: z.number().int().describe('Layouts tried.'),
      seconds: z.number().describe('Time searched.'),
      score: z.number().describe('Penalty of the plan kept; lower is better, 0 is perfect.'),
    })
    .describe('The layout search.'),
});

export const drawHousePlan = defineTool({
  name: 'draw_house_plan',
  title: 'Draw a house plan',
  description:
    'Draws a house floor plan as a DXF for AutoCAD (in inches), a PDF printed at true scale by LibreCAD, a PNG and a plan file. plot: "10 marla", "1 kanal" or "35 x 65 ft" (width along the road first). A layout search places the rooms in bands from the road back (car porch and drawing room, then kitchen, TV lounge and stairs, a passage, then bedrooms with attached baths), the doors, the windows and the sheet scale. Returns the files and 17 checks: the plan rules, a read-back of the saved DXF by an independent parser, and the printed scale. The plan file (files.plan) is what render_plan_3d, export_building_model, resize_room and set_sheet take.',
  group: 'cad',
  rung: 'file',
  ladder: {
    ruledOut: ['api', 'ui'],
    climb:
      'The drawing is written as its native file (DXF); LibreCAD, a real CAD program, prints it from its command line.',
  },
  input: z.strictObject({
    plot: z
      .string()
      .min(3)
      .max(60)
      .describe('the plot as people say it: "10 marla", "1 kanal", "35 x 65 ft"'),
    bedrooms: z.number().int().min(1).max(8).describe('Bedrooms, each with an attached bath.'),
    storeys: z.number().int().min(1).max(3).default(1).describe('Floors, ground floor included.'),
    paper: PaperSchema.default('A3'),
    scale: ScaleSchema.optional().describe(
      'a fixed scale; by default the most detailed one that fits the paper',
    ),
    seed: z
      .number()
      .int()
      .min(0)
      .max(4294967295)
      .optional()
      .describe('search seed; the same request and seed give the same plan'),
    request_id: RequestId,
  }),
  output: PlanOutput,
  errors: {
    BAD_INPUT: { hint: PLOT_HINT },
    REQUEST_REFUSED: {
      hint: `${BEDROOM_HINT} A fixed scale that does not fit the paper is refused with the scale that does.`,
    },
    PROGRAM_FAILED: { hint: LIBRECAD_HINT },
  },
  effect: {
    class: 'reversible',
    repeat:
      'The same request gives the same plan (the seed comes from it) and writes the same files again; a second call with the same request_id returns the first result.',
  },
  timeout: {
    deadlineMs: 90_000,
    settle: 'Look in the output folder draw_house_plan/<house>/ for v0.plan.json, v0.dxf, v0.pdf and v0.png.',
  },
  example: { plot: '10 marla', bedrooms: 3 },
  async run(input, ctx) {
    // The search and the drafting load when a plan is first drawn, not when the tool is declared.
    const { designPlan } = await import('./design.js');
    const { DRAFT_OUTPUT, describePlan, draft, planFields } = await import('./draft.js');
    const plot = parsePlot(input.plot);
    const seed = input.seed ?? seedOf(`${plot.widthFt}x${plot.depthFt}/${input.bedrooms}/${input.storeys}`);
    ctx.emit({
      type: 'progress-reported',
      stage: 'search',
      message: `searching layouts for ${SEARCH_BUDGET_MS / 1000} s at most`,
    });
    const { plan } = designPlan({
      plot,
      bedrooms: input.bedrooms,
      storeys: input.storeys,
      seed,
      budgetMs: Math.min(SEARCH_BUDGET_MS, Math.max(0, ctx.deadline - Date.now() - 30_000)),
      paper: input.paper,
      scale: input.scale === undefined ? undefined : scaleNumber(input.scale),
      signal: ctx.signal,
    });
    if (ctx.signal.aborted)
      throw new LiftError('TIMEOUT', 'The layout search was cut short by the deadline.', {
        outcome: 'not_started',
      });
    ctx.emit({
      type: 'progress-reported',
      stage: 'search',
      message: `kept the best of ${plan.search.candidates} layouts (score ${plan.search.score})`,
    });
    const drafted = await draft(plan, ctx);
    ctx.emit({ type: 'draft-written', revision: plan.revision, ms: drafted.ms });
    return {
      fields: planFields(plan, drafted),
      summary: describePlan(plan, drafted.checks),
      files: drafted.files,
      checks: drafted.checks,
      verifiedBy: `the plan rules; dxf-parser read the saved DXF back; poppler measured the scale on LibreCAD's PDF (${Object.keys(DRAFT_OUTPUT).length} files)`,
    };
  },
});
