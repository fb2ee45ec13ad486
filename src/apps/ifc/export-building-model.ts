import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { writeFileAtomic } from '../../rungs/file/atomic.js';
import { PLAN_FILE_HINT, PlanFileInput, planFilePaths, RequestId, readPlanInRoots } from '../plan/inputs.js';
import { ifcChecks } from './ifc-checks.js';
import { startWebIfc, writeIfc } from './ifc-writer.js';
import { IFC_CHECK_HINT, readIfc } from './validator.js';

export const exportBuildingModel = defineTool({
  name: 'export_building_model',
  title: 'Export a house plan as an IFC4 building model',
  description:
    'Writes a saved house plan (the plan file of draw_house_plan) as an IFC4 building model for Revit, ArchiCAD or any BIM program: storeys, walls with their openings, doors, windows, rooms as spaces, floor and roof slabs, stairs. Returns the .ifc file and three checks by IFC++, a reader other than the writer: the elements counted per type, every wall and slab built as a closed solid on the plot, and the file validated against the IFC4 schema.',
  group: 'bim',
  rung: 'file',
  input: z.strictObject({ plan_file: PlanFileInput, request_id: RequestId }),
  output: z.strictObject({
    ifc: z.string().describe('Absolute path of the IFC4 file.'),
    bytes: z.number().int().describe('Size of the file.'),
    counts: z
      .record(z.string(), z.number().int())
      .describe('Elements by IFC type: {"IfcWall": 24, "IfcDoor": 9, ...}.'),
  }),
  errors: {
    NOT_FOUND: { hint: PLAN_FILE_HINT },
    PROGRAM_FAILED: { hint: IFC_CHECK_HINT },
  },
  effect: {
    class: 'reversible',
    repeat: 'A second call writes the same model again (new GlobalIds) over the same file.',
  },
  timeout: {
    deadlineMs: 300_000,
    settle: 'Look in the output folder export_building_model/<house>/ for vN.ifc.',
  },
  paths: planFilePaths,
  example: { plan_file: '/home/me/.lift/out/draw_house_plan/10-marla-3-bed/v0.plan.json' },
  async run(input, ctx) {
    const plan = await readPlanInRoots(input.plan_file, ctx);
    const dir = join(ctx.outputDir, plan.house);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `v${plan.revision}.ifc`);
    ctx.emit({ type: 'progress-reported', stage: 'write', message: 'writing IFC4 with web-ifc' });
    const written = await writeIfc(plan, await ctx.service('web-ifc', startWebIfc));
    ctx.markStarted();
    await writeFileAtomic(path, written.bytes, { mode: 0o600 });
    ctx.emit({ type: 'progress-reported', stage: 'check', message: 'reading the model back with IFC++' });
    const reading = await readIfc(path, ctx);
    const checks = ifcChecks(reading, written);
    const counted = Object.entries(written.counts)
      .map(([type, count]) => `${count} ${type.replace(/^Ifc/, '').toLowerCase()}(s)`)
      .join(', ');
    return {
      fields: { ifc: path, bytes: written.bytes.length, counts: written.counts },
      summary: `IFC4 model of v${plan.revision}: ${counted}. Checked: ${checks.filter((check) => check.passed).length} of ${checks.length} passed.`,
      files: { ifc: path },
      checks,
      verifiedBy:
        'IFC++ (Debian libifcplusplus, generated from the IFC4 EXPRESS schema) reopened and built the file',
    };
  },
});
