import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import { PlanOutput } from './draw-house-plan.js';
import { PLAN_FILE_HINT, PlanFileInput, planFilePaths, RequestId, readPlanInRoots } from './inputs.js';
import { LIBRECAD_HINT } from './librecad.js';
import type { PlanFile } from './plan-file.js';
import { FT } from './program.js';

export const resizeRoom = defineTool({
  name: 'resize_room',
  title: 'Resize a room of a house plan',
  description:
    "Makes one room of a saved house plan bigger or smaller (by_ft: 1 = a foot bigger, -0.5 = six inches smaller). It tries the full change and then half of it, in width and in depth, rerunning the layout search each time, and keeps a new version only if every plan rule still passes and no room loses a door it had. Otherwise it refuses with the reason (REQUEST_REFUSED) and the plan stays as it is. Returns the new version's files and checks, like draw_house_plan.",
  group: 'cad',
  rung: 'file',
  input: z.strictObject({
    plan_file: PlanFileInput,
    room: z.string().min(2).max(60).describe('the room: its name ("Kitchen", "Bed Room 1") or id'),
    by_ft: z
      .number()
      .min(-4)
      .max(4)
      .refine((n) => n !== 0 && Number.isInteger(n * 4), 'a non-zero multiple of 0.25 ft')
      .describe('feet to add (negative to take away)'),
    request_id: RequestId,
  }),
  output: PlanOutput.extend({
    changed: z
      .strictObject({
        room: z.string().describe('Room name.'),
        from: z.string().describe('Width x depth before: 12\'-0" x 14\'-6".'),
        to: z.string().describe('Size after, the same way.'),
      })
      .describe('The room resized.'),
  }),
  errors: {
    NOT_FOUND: { hint: PLAN_FILE_HINT },
    REQUEST_REFUSED: {
      hint: 'Try a smaller change, another room, or a bigger plot; the plan was not changed.',
    },
    PROGRAM_FAILED: { hint: LIBRECAD_HINT },
  },
  effect: {
    class: 'reversible',
    repeat:
      'Each call writes a new version next to the others (v1, v2...); the source plan is never changed.',
  },
  timeout: {
    deadlineMs: 90_000,
    settle: 'Look in the output folder resize_room/<house>/ for the newest vN.plan.json.',
  },
  paths: planFilePaths,
  example: {
    plan_file: '/home/me/.lift/out/draw_house_plan/10-marla-3-bed/v0.plan.json',
    room: 'Kitchen',
    by_ft: 1,
  },
  async run(input, ctx) {
    // The layout search and the drafting load when a room is first resized.
    const { attempt, findRoom } = await import('./resize-search.js');
    const { describePlan, draft, planFields } = await import('./draft.js');
    const { feetInches } = await import('./geometry.js');
    const { nextRevision } = await import('./revision.js');
    const source = await readPlanInRoots(input.plan_file, ctx);
    const room = findRoom(source, input.room);
    const revision = await nextRevision(ctx, source);
    const reasons: string[] = [];
    let found: PlanFile | undefined;
    for (const step of [input.by_ft, input.by_ft / 2]) {
      const inches = Math.round(step * FT);
      for (const direction of ['width', 'depth'] as const) {
        ctx.emit({
          type: 'progress-reported',
          stage: 'search',
          message: `trying ${room.name} ${feetInches(Math.abs(inches))} ${inches > 0 ? 'bigger' : 'smaller'} in ${direction}`,
        });
        const tried = attempt(source, room, direction, inches, revision, ctx);
        if (tried.plan) found = tried.plan;
        else if (step === input.by_ft && tried.reason) reasons.push(tried.reason);
        if (found) break;
      }
      if (found) break;
    }
    if (!found) {
      const change = input.by_ft > 0 ? 'get bigger' : 'get smaller';
      throw new LiftError(
        'REQUEST_REFUSED',
        `The ${room.name.toLowerCase()} can't ${change} on this plot: ${reasons.join('; ')}. The plan stays as it is.`,
        {
          hint: 'Try a smaller change, another room, or a bigger plot.',
          details: { room: room.name, reasons },
        },
      );
    }
    const after = found.storeys.flatMap((storey) => storey.rooms).find((other) => other.id === room.id)!;
    const drafted = await draft(found, ctx);
    const changed = {
      room: room.name,
      from: `${feetInches(room.w)} x ${feetInches(room.d)}`,
      to: `${feetInches(after.w)} x ${feetInches(after.d)}`,
    };
    return {
      fields: { ...planFields(found, drafted), changed },
      summary: `${room.name} ${changed.from} -> ${changed.to}. ${describePlan(found, drafted.checks)}`,
      files: drafted.files,
      checks: drafted.checks,
      verifiedBy:
        'the plan rules and the door rule; dxf-parser read the saved DXF back; poppler measured the printed scale',
    };
  },
});
