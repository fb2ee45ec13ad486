import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import type { Check } from '../../contract/envelope.js';
import { runWrapped } from '../../rungs/cli/run-wrapped.js';
import type { PlacedLayer } from './layers.js';

/** Debian's ImageMagick, not the stand-in some machines put first on the path. */
export const IMAGEMAGICK = { convert: '/usr/bin/convert', identify: '/usr/bin/identify' };

export const IMAGEMAGICK_HINT =
  'ImageMagick (Debian package imagemagick) reads the PSD back; install it with bash scripts/setup.sh design.';

/** A channel may differ by this much (rounding in alpha blending); no more than this share of pixels may. */
export const TOLERANCE = { channel: 2, pixels: 0.001 };

interface Difference {
  pixels: number;
  worst: number;
}

function differ(a: Uint8Array, b: Uint8Array): Difference {
  let pixels = 0;
  let worst = 0;
  for (let i = 0; i + 3 < Math.max(a.length, b.length); i += 4) {
    let most = 0;
    for (let c = 0; c < 4; c += 1) most = Math.max(most, Math.abs((a[i + c] ?? -999) - (b[i + c] ?? 999)));
    if (most > TOLERANCE.channel) pixels += 1;
    worst = Math.max(worst, most);
  }
  return { pixels, worst };
}

/** Reads the saved PSD with ImageMagick (which shares nothing with ag-psd): its layers, and pictures as raw RGBA. */
export async function psdChecks(
  psd: string,
  preview: string,
  layers: PlacedLayer[],
  size: [number, number],
  ctx: ToolContext,
): Promise<Check[]> {
  const deadline = Math.min(ctx.deadline, Date.now() + 60_000);
  const scratch = await mkdtemp(join(dirname(psd), '.lift-psd-check-'));
  try {
    const raw = (name: string) => join(scratch, `${name}.rgba`);
    const run = (program: string, args: string[]) =>
      runWrapped({ program, args, deadline, signal: ctx.signal, input: '', cap: 1024 * 1024 });
    const [listing] = await Promise.all([
      run(IMAGEMAGICK.identify, ['-format', '%[scene]|%l|%w|%h|%X|%Y\\n', psd]),
      run(IMAGEMAGICK.convert, [`${psd}[0]`, '-depth', '8', `RGBA:${raw('composite')}`]),
      run(IMAGEMAGICK.convert, [
        psd,
        '-delete',
        '0',
        '-background',
        'none',
        '-flatten',
        '-depth',
        '8',
        `RGBA:${raw('stacked')}`,
      ]),
      run(IMAGEMAGICK.convert, [preview, '-depth', '8', `RGBA:${raw('preview')}`]),
    ]);
    const scenes = listing.stdout.text
      .trim()
      .split('\n')
      .map((line) => line.split('|'))
      .map(([scene, label, w, h, x, y]) => ({
        scene: Number(scene),
        label: label ?? '',
        w: Number(w),
        h: Number(h),
        x: Number(x),
        y: Number(y),
      }));
    const read = scenes.slice(1);
    const names = read.map((scene) => scene.label);
    const namesOk =
      names.length === layers.length && layers.every((layer, index) => names[index] === layer.name);
    const boxes = layers.filter((layer, index) => {
      const scene = read[index];
      return (
        !scene ||
        scene.x !== layer.left ||
        scene.y !== layer.top ||
        scene.w !== layer.width ||
        scene.h !== layer.height
      );
    });
    const [composite, stacked, shown] = await Promise.all(
      ['composite', 'stacked', 'preview'].map((name) => readFile(raw(name))),
    );
    const total = size[0] * size[1];
    const stackedVsComposite = differ(stacked!, composite!);
    const previewVsComposite = differ(shown!, composite!);
    const within = (difference: Difference) => difference.pixels <= total * TOLERANCE.pixels;
    const tolerance = `a pixel counts as different when a channel is off by more than ${TOLERANCE.channel}/255; at most ${TOLERANCE.pixels * 100}% may be`;
    return [
      {
        name: 'psd_layers_named',
        passed: namesOk,
        detail: namesOk
          ? `ImageMagick reads ${names.length} layers, bottom first: ${names.join(', ')}.`
          : `ImageMagick reads layers [${names.join(', ')}], expected [${layers.map((layer) => layer.name).join(', ')}].`,
      },
      {
        name: 'psd_layers_in_place',
        passed: namesOk && boxes.length === 0,
        detail:
          boxes.length === 0
            ? 'Every layer has its planned box (position and size).'
            : `Not in their boxes: ${boxes.map((layer) => `${layer.name} (planned ${layer.width}x${layer.height}+${layer.left}+${layer.top})`).join(', ')}.`,
      },
      {
        name: 'psd_flattened_equals_layers',
        passed: composite!.length === total * 4 && within(stackedVsComposite),
        detail: `ImageMagick stacked the layers itself: ${stackedVsComposite.pixels} of ${total} pixels differ from the PSD's flattened picture (largest channel difference ${stackedVsComposite.worst}); ${tolerance}.`,
      },
      {
        name: 'preview_equals_flattened',
        passed: shown!.length === total * 4 && within(previewVsComposite),
        detail: `The PNG preview differs from the PSD's flattened picture in ${previewVsComposite.pixels} pixels (largest channel difference ${previewVsComposite.worst}).`,
      },
    ];
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
