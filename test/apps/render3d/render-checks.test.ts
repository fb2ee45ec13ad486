import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { designPlan } from '../../../src/apps/plan/design.js';
import { parsePlot } from '../../../src/apps/plan/plot.js';
import { houseSpec } from '../../../src/apps/render3d/house-spec.js';
import { pictureChecks, readSilhouette } from '../../../src/apps/render3d/picture-checks.js';
import { tempDir } from '../../support/temp.js';

const dir = tempDir('lift-3d-checks-');
afterAll(() => dir.remove());

function mask(name: string, box: [number, number, number, number]): string {
  const canvas = createCanvas(160, 120);
  const context = canvas.getContext('2d');
  context.fillStyle = '#000';
  context.fillRect(0, 0, 160, 120);
  context.fillStyle = '#fff';
  context.fillRect(...box);
  const path = join(dir.path, `${name}.png`);
  writeFileSync(path, canvas.toBuffer('image/png'));
  return path;
}

describe('render_plan_3d checks', () => {
  it('passes a silhouette with clear frame on every side and fails one cut off at the edge', async () => {
    const size = { width: 160, height: 120 };
    const framed = pictureChecks('front', await readSilhouette(mask('framed', [20, 20, 120, 80])), size);
    expect(framed.every((check) => check.passed)).toBe(true);
    const cut = pictureChecks('front', await readSilhouette(mask('cut', [40, 20, 120, 80])), size);
    expect(cut.find((check) => check.name === 'picture_front_not_cut_off')).toMatchObject({ passed: false });
    expect(cut.find((check) => check.name === 'picture_front_not_cut_off')?.detail).toContain('right 0');
  });

  it('cuts every door and window out of its wall and puts glass in every window', () => {
    const { plan } = designPlan({
      plot: parsePlot('10 marla'),
      bedrooms: 3,
      storeys: 1,
      seed: 3,
      budgetMs: 2500,
      paper: 'A3',
    });
    const spec = houseSpec(plan);
    const windows = plan.storeys.flatMap((storey) => storey.windows);
    expect(spec.boxes.filter((box) => box.kind === 'glass')).toHaveLength(windows.length);
    expect(spec.boxes.filter((box) => box.kind === 'floor')).toHaveLength(plan.storeys[0]!.rooms.length);
    expect(spec.boxes.filter((box) => box.name === 'Front door')).toHaveLength(1);
    for (const window of windows)
      expect(spec.boxes.some((box) => box.name.endsWith(`under ${window.id}`))).toBe(true);
  });
});
