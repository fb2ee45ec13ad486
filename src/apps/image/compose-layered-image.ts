import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { writeFileAtomic } from '../../rungs/file/atomic.js';
import { LayerSchema, type PlacedLayer, placeLayers, stack } from './layers.js';
import { pictureBytes, picturePaths, pictureUrls } from './pictures.js';
import { IMAGEMAGICK_HINT, psdChecks } from './psd-checks.js';

const slug = (name: string) =>
  name
    .trim()
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 60) || 'image';

function rgb(hex: string) {
  return {
    r: Number.parseInt(hex.slice(1, 3), 16),
    g: Number.parseInt(hex.slice(3, 5), 16),
    b: Number.parseInt(hex.slice(5, 7), 16),
  };
}

/** The layered file by ag-psd: every layer with its pixels, text layers also as editable text. */
async function writePsd(
  path: string,
  size: [number, number],
  layers: PlacedLayer[],
  composite: Uint8ClampedArray,
): Promise<void> {
  const { writePsdUint8Array } = await import('ag-psd');
  const bytes = writePsdUint8Array(
    {
      width: size[0],
      height: size[1],
      imageData: { width: size[0], height: size[1], data: composite },
      children: layers.map((layer) => ({
        name: layer.name,
        left: layer.left,
        top: layer.top,
        right: layer.left + layer.width,
        bottom: layer.top + layer.height,
        imageData: { width: layer.width, height: layer.height, data: layer.data },
        ...(layer.text
          ? {
              text: {
                text: layer.text.text,
                transform: [1, 0, 0, 1, layer.left, layer.top + layer.text.size],
                style: {
                  font: { name: 'DejaVuSans-Bold' },
                  fontSize: layer.text.size,
                  fillColor: rgb(layer.text.color),
                },
              },
            }
          : {}),
      })),
    },
    { noBackground: true },
  );
  await writeFileAtomic(path, bytes, { mode: 0o600 });
}

async function writePreview(
  path: string,
  size: [number, number],
  composite: Uint8ClampedArray,
): Promise<void> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(size[0], size[1]);
  const context = canvas.getContext('2d');
  const image = context.createImageData(size[0], size[1]);
  image.data.set(composite);
  context.putImageData(image, 0, 0);
  await writeFileAtomic(path, await canvas.encode('png'), { mode: 0o600 });
}

export const composeLayeredImage = defineTool({
  name: 'compose_layered_image',
  title: 'Compose a layered image (PSD)',
  description:
    'Makes a layered PSD that opens in Photoshop, GIMP, Photopea and Affinity with every layer movable, and a PNG preview. size: [width, height] in pixels. layers: bottom first, each {name, kind: "image", file (or url), at} or {name, kind: "text", text, color, at, size} or {name, kind: "color", color}; at: fill, fit, center, top-left, top, top-right, left, right, bottom-left, bottom, bottom-right, below (under the layer before); color: a name (white, yellow, red...) or #rrggbb. Returns the PSD and the preview, with checks read back by ImageMagick: every layer by name and in its box, and the flattened picture equal to the layers stacked, pixel for pixel within a stated tolerance.',
  group: 'image',
  rung: 'file',
  input: z.strictObject({
    size: z
      .tuple([z.number().int().min(16).max(8000), z.number().int().min(16).max(8000)])
      .describe('[width, height] in pixels.'),
    layers: z.array(LayerSchema).min(1).max(30).describe('Bottom layer first.'),
    name: z.string().min(1).max(80).default('poster').describe('Names the .psd and .png (as a slug).'),
    request_id: RequestIdSchema.optional(),
  }),
  output: z.strictObject({
    psd: z.string().describe('Absolute path of the PSD.'),
    preview: z.string().describe('Absolute path of the PNG preview.'),
    layers: z
      .array(
        z.strictObject({
          name: z.string().describe('Layer name.'),
          kind: z.string().describe('image, text or color.'),
          box: z.string().describe('WIDTHxHEIGHT+LEFT+TOP in pixels, e.g. 400x120+340+80.'),
        }),
      )
      .describe('Each layer placed, bottom first.'),
  }),
  errors: {
    NOT_FOUND: {
      hint: 'A layer names a picture that could not be read; give the path of a PNG, JPEG or WebP inside the roots.',
    },
    POLICY_BLOCKED: {
      hint: 'A layer url is on an origin the operator has not allowed (settings.image.origins), or redirects to another origin; give a file path instead.',
    },
    PROGRAM_FAILED: { hint: IMAGEMAGICK_HINT },
  },
  effect: { class: 'reversible', repeat: 'A second identical call writes the same two files again.' },
  timeout: {
    deadlineMs: 60_000,
    settle: 'Look in the output folder compose_layered_image/ for NAME.psd and NAME.png.',
  },
  paths: (input) => picturePaths(input.layers),
  urls: (input) => pictureUrls(input.layers),
  example: {
    size: [1080, 1080],
    name: 'Eid Sale',
    layers: [
      { name: 'Background', kind: 'color', color: '#1b5e20' },
      { name: 'Title', kind: 'text', text: 'Eid Sale', color: 'white' },
      { name: 'Subtitle', kind: 'text', text: '20% off', color: 'yellow' },
    ],
  },
  async run(input, ctx) {
    const size = input.size;
    const layers = await placeLayers(input.layers, size, (layer) => pictureBytes(layer, ctx));
    const composite = stack(layers, size);
    await mkdir(ctx.outputDir, { recursive: true, mode: 0o700 });
    const base = join(ctx.outputDir, slug(input.name));
    const files = { psd: `${base}.psd`, preview: `${base}.png` };
    ctx.markStarted();
    await writePsd(files.psd, size, layers, composite);
    await writePreview(files.preview, size, composite);
    const checks = await psdChecks(files.psd, files.preview, layers, size, ctx);
    const described = layers.map((layer) => ({
      name: layer.name,
      kind: layer.kind,
      box: `${layer.width}x${layer.height}+${layer.left}+${layer.top}`,
    }));
    return {
      fields: { ...files, layers: described },
      summary: `PSD with ${layers.length} layers (${layers.map((layer) => layer.name).join(', ')}), ${size[0]}x${size[1]}: ${files.psd} (and a PNG preview). Checked: ${checks.filter((check) => check.passed).length} of ${checks.length} passed.`,
      files,
      checks,
      verifiedBy:
        'ImageMagick read the saved PSD back: layer names and boxes, and its own stacking of the layers against the flattened picture',
    };
  },
});
