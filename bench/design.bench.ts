// The second family of lifted programs, timed end to end as a person would call them, next to the
// figures of the post this work follows (its ledger rows; they are not re-measured here):
// drafting 4.4 s / 17 checks, 3D 33.8 s / 15 checks, IFC 4.6 s / 3 checks, PSD 2.9 s / 2 checks
// (its PSD and IFC rows include two model calls, ours are the tool alone).
// LIFT_BENCH_SHORT=1 (bench/short.ts) changes nothing here: each tool is called once already.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { tools as ifcTools } from '../src/apps/ifc/tools.js';
import { tools as imageTools } from '../src/apps/image/tools.js';
import { tools as planTools } from '../src/apps/plan/tools.js';
import { tools as renderTools } from '../src/apps/render3d/tools.js';
import { type Envelope, isError } from '../src/contract/envelope.js';
import { Runtime } from '../src/runtime/runtime.js';

const POST = { drafting: [4.4, 17], '3D': [33.8, 15], IFC: [4.6, 3], PSD: [2.9, 2] } as const;

// The tools refuse every path in Lift's home: the picture a layer is made from lies in `inputs`,
// the root the runtime is given (as `--root` does).
const folder = mkdtempSync(join(tmpdir(), 'lift-design-bench-'));
const inputs = join(folder, 'inputs');
mkdirSync(inputs);
const runtime = new Runtime({
  home: join(folder, 'home'),
  tools: [...planTools, ...renderTools, ...ifcTools, ...imageTools],
  defaultRoots: [inputs],
});

async function timed(label: keyof typeof POST, tool: string, input: unknown): Promise<Envelope> {
  const started = performance.now();
  const envelope = await runtime.invoke(tool, input);
  const seconds = (performance.now() - started) / 1000;
  // A refused call would print 0/0 checks and a ratio of nothing: it ends the bench (failed
  // checks are figures, and are printed).
  if (isError(envelope)) throw new Error(`${tool} failed: ${JSON.stringify(envelope).slice(0, 600)}`);
  const checks = 'checks' in envelope ? envelope.checks : [];
  const passed = checks.filter((check) => check.passed).length;
  const [postSeconds, postChecks] = POST[label];
  console.log(
    `${label.padEnd(9)} lift ${seconds.toFixed(1).padStart(5)} s ${`${passed}/${checks.length}`.padStart(6)} checks | post ${postSeconds} s ${postChecks}/${postChecks} | ratio ${(seconds / postSeconds).toFixed(2)}`,
  );
  return envelope;
}

try {
  const drawn = await timed('drafting', 'draw_house_plan', { plot: '10 marla', bedrooms: 3 });
  if (!('files' in drawn)) throw new Error(JSON.stringify(drawn));
  await timed('3D', 'render_plan_3d', { plan_file: drawn.files.plan });
  await timed('IFC', 'export_building_model', { plan_file: drawn.files.plan });
  const back = join(inputs, 'shop.png');
  const canvas = createCanvas(1600, 1000);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ff9800';
  context.fillRect(0, 0, 1600, 1000);
  writeFileSync(back, canvas.toBuffer('image/png'));
  await timed('PSD', 'compose_layered_image', {
    size: [1080, 1080],
    name: 'Eid Sale',
    layers: [
      { name: 'Background', kind: 'image', file: back, at: 'fill' },
      { name: 'Title', kind: 'text', text: 'Eid Sale', color: 'white' },
      { name: 'Subtitle', kind: 'text', text: '20% off', color: 'yellow' },
    ],
  });
} finally {
  await runtime.close();
  rmSync(folder, { recursive: true, force: true });
}
