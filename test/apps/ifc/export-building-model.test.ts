import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ifcChecks } from '../../../src/apps/ifc/ifc-checks.js';
import { startWebIfc, writeIfc } from '../../../src/apps/ifc/ifc-writer.js';
import { tools } from '../../../src/apps/ifc/tools.js';
import { readIfc } from '../../../src/apps/ifc/validator.js';
import { designPlan } from '../../../src/apps/plan/design.js';
import { writePlanFile } from '../../../src/apps/plan/plan-file.js';
import { parsePlot } from '../../../src/apps/plan/plot.js';
import type { ToolContext } from '../../../src/contract/context.js';
import type { Envelope, SuccessEnvelope } from '../../../src/contract/envelope.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';

function success(envelope: Envelope): SuccessEnvelope {
  if (!('checks' in envelope)) throw new Error(`expected a result, got ${JSON.stringify(envelope)}`);
  return envelope;
}

/** Just enough of a call's context for the reader outside a call. */
function bareContext(dir: string): ToolContext {
  return {
    signal: new AbortController().signal,
    deadline: Date.now() + 280_000,
    outputDir: dir,
    emit: () => undefined,
  } as unknown as ToolContext;
}

describe('export_building_model', () => {
  const home = tempDir('lift-ifc-');
  let runtime: Runtime;
  let planFile: string;
  const { plan } = designPlan({
    plot: parsePlot('5 marla'),
    bedrooms: 2,
    storeys: 2,
    seed: 7,
    budgetMs: 2500,
    paper: 'A3',
  });
  beforeAll(async () => {
    runtime = new Runtime({ home: home.path, tools });
    planFile = join(runtime.outputDir, 'draw_house_plan', plan.house, 'v0.plan.json');
    mkdirSync(join(runtime.outputDir, 'draw_house_plan', plan.house), { recursive: true });
    await writePlanFile(planFile, plan);
  });
  afterAll(async () => {
    await runtime.close();
    home.remove();
  });

  it('writes a two-storey IFC4 model that IFC++ reopens, builds and validates', async () => {
    const envelope = success(await runtime.invoke('export_building_model', { plan_file: planFile }));
    expect(envelope.ok, JSON.stringify(envelope.checks)).toBe(true);
    expect(envelope.checks.map((check) => check.name)).toEqual([
      'ifc_element_counts',
      'ifc_solids_on_plot',
      'ifc_schema_valid',
    ]);
    expect(envelope.fields.counts).toMatchObject({ IfcBuildingStorey: 2, IfcSlab: 3, IfcStair: 2 });
    const text = readFileSync(envelope.files.ifc!, 'utf8');
    expect(text).toContain("FILE_SCHEMA(('IFC4'));");
  }, 300_000);

  it('fails the schema and count checks on a file with a misspelt entity and a short wall', async () => {
    const written = await writeIfc(plan, await startWebIfc());
    const text = new TextDecoder().decode(written.bytes);
    const firstWall = /#(\d+)=IFCWALL\((.*),\.STANDARD\.\);/.exec(text)!;
    const broken = text
      .replace('IFCSTAIR(', 'IFCSTAIRS(')
      // A function, not a string: a GlobalId may hold "$'", which a replacement string expands.
      .replace(firstWall[0], () => `#${firstWall[1]}=IFCWALL(${firstWall[2]});`);
    const path = join(home.path, 'broken.ifc');
    writeFileSync(path, broken);
    const checks = ifcChecks(await readIfc(path, bareContext(home.path)), written);
    const schema = checks.find((check) => check.name === 'ifc_schema_valid')!;
    expect(schema.passed).toBe(false);
    expect(schema.detail).toContain('IFCSTAIRS is not an IFC4 entity');
    expect(schema.detail).toContain('IFCWALL has 8 arguments; IFC4 defines 9');
    expect(checks.find((check) => check.name === 'ifc_element_counts')?.passed).toBe(false);
  }, 300_000);
});
