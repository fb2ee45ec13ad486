import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import type { Check } from '../../contract/envelope.js';
import { LiftError } from '../../contract/errors.js';
import { PLAN_FILE_HINT, PlanFileInput, planFilePaths, RequestId, readPlanInRoots } from '../plan/inputs.js';
import type { PlanFile } from '../plan/plan-file.js';
import { BLENDER_HINT, runBlender } from './blender.js';
import { houseSpec } from './house-spec.js';
import { pictureChecks, readSilhouette } from './picture-checks.js';

/** The scene script sits next to this module in src/; from dist/ it is found in the source tree. */
function sceneScript(): string {
  const candidates = [
    fileURLToPath(new URL('./house_scene.py', import.meta.url)),
    fileURLToPath(new URL('../../../src/apps/render3d/house_scene.py', import.meta.url)),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found)
    throw new LiftError(
      'INTERNAL_ERROR',
      `The Blender scene script is missing (looked in ${candidates.join(', ')}).`,
    );
  return found;
}

/**
 * The front camera looks from the road, a little from above, and from the side the front door
 * faces when that door sits in a side wall (onto the porch).
 */
function frontDirection(plan: PlanFile): [number, number, number] {
  const ground = plan.storeys[0];
  const door = ground?.doors.find((candidate) => candidate.id === plan.front_door);
  const porch = ground?.rooms.find((room) => room.kind === 'porch');
  if (!door || !porch || door.along === 'x') return [0.2, 1, -0.12];
  return [porch.x + porch.w / 2 > door.x ? -0.55 : 0.55, 1, -0.12];
}

interface SceneResult {
  checks: Check[];
  views: Record<'plan3d' | 'front', { mask: string; front_door_visible?: boolean }>;
  objects: number;
  blender: string;
}

export const renderPlan3d = defineTool({
  name: 'render_plan_3d',
  title: 'Render a house plan in 3D',
  description:
    'Builds a saved house plan (the plan file of draw_house_plan) as a 3D model in Blender, out of sight in background mode, and renders a 3D floor plan (a cutaway from above, roof off) and a front view from the road. Returns the two PNGs, the .blend model and checks read from the scene (every room has its floor, glass in every window, the front door in place, doors, walls, stairs, model on the plot) and from the pictures (silhouette masks prove the house is in each picture and not cut off; the front door can be seen from the road).',
  group: 'three',
  rung: 'cli',
  ladder: {
    ruledOut: ['api'],
    climb: 'Blender runs from its command line in background mode with a scene script; no window opens.',
  },
  input: z.strictObject({
    plan_file: PlanFileInput,
    width: z
      .number()
      .int()
      .min(320)
      .max(1920)
      .default(1280)
      .describe('picture width in pixels (height is 3/4 of it)'),
    request_id: RequestId,
  }),
  output: z.strictObject({
    plan3d: z.string().describe('Absolute path of the PNG seen from above, roof off.'),
    front: z.string().describe('Absolute path of the PNG seen from the road.'),
    blend: z.string().describe('Absolute path of the Blender model.'),
    objects: z.number().int().describe('Objects in the scene.'),
    blender: z.string().describe('Blender version.'),
    seconds: z.number().describe('Time Blender took.'),
  }),
  errors: {
    NOT_FOUND: { hint: PLAN_FILE_HINT },
    PROGRAM_FAILED: { hint: BLENDER_HINT },
    TIMEOUT: {
      retry: 'yes',
      hint: 'Blender was ended at the deadline; a second call renders again from the start (try a smaller width).',
    },
  },
  effect: {
    class: 'reversible',
    repeat: 'A second call renders the same plan again over the same three files.',
  },
  timeout: {
    deadlineMs: 180_000,
    settle: 'Look in the output folder render_plan_3d/<house>/ for vN_plan3d.png, vN_front.png and vN.blend.',
  },
  paths: planFilePaths,
  example: { plan_file: '/home/me/.lift/out/draw_house_plan/10-marla-3-bed/v0.plan.json' },
  async run(input, ctx) {
    const plan = await readPlanInRoots(input.plan_file, ctx);
    const spec = houseSpec(plan);
    const dir = join(ctx.outputDir, plan.house);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const work = await mkdtemp(join(dir, '.lift-3d-'));
    const base = join(dir, `v${plan.revision}`);
    const files = { plan3d: `${base}_plan3d.png`, front: `${base}_front.png`, blend: `${base}.blend` };
    const height = Math.round((input.width * 3) / 4);
    try {
      const job = {
        spec,
        width: input.width,
        height,
        views: { plan3d: join(work, 'plan3d.png'), front: join(work, 'front.png') },
        mask_dir: join(work, 'masks'),
        blend: join(work, 'model.blend'),
        front_direction: frontDirection(plan),
      };
      await writeFile(join(work, 'job.json'), JSON.stringify(job), { mode: 0o600 });
      ctx.markStarted();
      const run = await runBlender({
        script: sceneScript(),
        args: [join(work, 'job.json'), join(work, 'result.json')],
        home: work,
        deadline: ctx.deadline,
        signal: ctx.signal,
        onProgress: (percent, what) =>
          ctx.emit({ type: 'progress-reported', stage: 'blender', percent, message: what }),
      });
      const scene = JSON.parse(await readFile(join(work, 'result.json'), 'utf8')) as SceneResult;
      const [planMask, frontMask] = await Promise.all([
        readSilhouette(scene.views.plan3d.mask),
        readSilhouette(scene.views.front.mask),
      ]);
      const size = { width: input.width, height };
      const checks: Check[] = [
        ...scene.checks,
        ...pictureChecks('plan3d', planMask, size),
        ...pictureChecks('front', frontMask, size),
        {
          name: 'picture_front_door_visible',
          passed: scene.views.front.front_door_visible === true,
          detail: scene.views.front.front_door_visible
            ? 'a ray from the front camera meets the front door first'
            : 'the front door is hidden in the front view',
        },
      ];
      for (const [from, to] of [
        [job.views.plan3d, files.plan3d],
        [job.views.front, files.front],
        [job.blend, files.blend],
      ] as const) {
        await chmod(from, 0o600);
        await rename(from, to);
      }
      const passed = checks.filter((check) => check.passed).length;
      return {
        fields: {
          ...files,
          objects: scene.objects,
          blender: scene.blender,
          seconds: Math.round(run.ms) / 1000,
        },
        summary: `3D model of v${plan.revision} (${scene.objects} objects) in Blender ${scene.blender}: a 3D floor plan and a front view, ${input.width}x${height}. Checked: ${passed} of ${checks.length} passed.`,
        files,
        checks,
        verifiedBy:
          'checks read from the Blender scene; silhouette masks decoded by @napi-rs/canvas, not Blender',
      };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
});
