import { z } from 'zod';
import { LiftError } from '../../contract/errors.js';

export const PLACEMENTS = [
  'fill',
  'fit',
  'center',
  'top-left',
  'top',
  'top-right',
  'left',
  'right',
  'bottom-left',
  'bottom',
  'bottom-right',
  'below',
] as const;
export type Placement = (typeof PLACEMENTS)[number];

/** Colour names people use, and #rrggbb. */
export const COLOURS: Record<string, string> = {
  white: '#ffffff',
  black: '#000000',
  red: '#e53935',
  green: '#43a047',
  blue: '#1e88e5',
  yellow: '#fdd835',
  orange: '#fb8c00',
  purple: '#8e24aa',
  pink: '#ec407a',
  gold: '#d4af37',
  silver: '#c0c0c0',
  grey: '#9e9e9e',
  gray: '#9e9e9e',
  navy: '#1a237e',
  maroon: '#800000',
  teal: '#00897b',
  cyan: '#00bcd4',
  brown: '#6d4c41',
};

const Colour = z
  .string()
  .regex(/^(#[0-9a-fA-F]{6}|[a-z]+)$/)
  .refine(
    (value) => value.startsWith('#') || value in COLOURS,
    `a colour name (${Object.keys(COLOURS).join(', ')}) or #rrggbb`,
  )
  .describe('A name (white, yellow, navy...) or #rrggbb.');

const Name = z.string().min(1).max(60).describe('Layer name, as the editor shows it.');
const At = z
  .enum(PLACEMENTS)
  .describe(
    'fill covers the canvas; fit shows all of the picture; corners and sides keep a margin; below goes under the layer before',
  );

export const LayerSchema = z.discriminatedUnion('kind', [
  z
    .strictObject({
      name: Name,
      kind: z.literal('image').describe('A picture from a file or a URL.'),
      file: z
        .string()
        .min(1)
        .max(1000)
        .optional()
        .describe('path of a PNG, JPEG or WebP inside the working folder (or the roots the operator set)'),
      url: z
        .string()
        .min(1)
        .max(2000)
        .optional()
        .describe(
          'instead of file: the https address of a PNG, JPEG or WebP on an origin the operator allows (settings.image.origins)',
        ),
      at: At.optional(),
      scale: z
        .number()
        .min(0.02)
        .max(1)
        .optional()
        .describe('for corner and side placements: share of the canvas width, default 0.25'),
    })
    .refine((layer) => (layer.file === undefined) !== (layer.url === undefined), {
      message: 'an image layer names its picture by file or by url, exactly one of them',
    }),
  z.strictObject({
    name: Name,
    kind: z.literal('text').describe('One line of text, editable in the PSD.'),
    text: z.string().min(1).max(200).describe('The words.'),
    at: At.optional(),
    color: Colour.default('white'),
    size: z.number().int().min(6).max(1000).optional().describe('letter height in pixels'),
  }),
  z.strictObject({
    name: Name,
    kind: z.literal('color').describe('A solid colour over the whole canvas.'),
    color: Colour,
  }),
]);
export type LayerSpec = z.infer<typeof LayerSchema>;

export const hex = (colour: string): string =>
  colour.startsWith('#') ? colour.toLowerCase() : (COLOURS[colour] ?? '#000000');

/** A layer turned into pixels: its box on the canvas and its RGBA data. */
export interface PlacedLayer {
  name: string;
  kind: LayerSpec['kind'];
  left: number;
  top: number;
  width: number;
  height: number;
  data: Uint8ClampedArray;
  text?: { text: string; size: number; color: string };
}

const FONT_FILE = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const FONT = 'Lift Poster Sans';

type Canvas = typeof import('@napi-rs/canvas');

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where a box of this size goes on the canvas, clipped to it. */
function position(
  at: Placement,
  w: number,
  h: number,
  size: [number, number],
  previous: Box | undefined,
): Box {
  const [cw, ch] = size;
  const margin = Math.round(Math.min(cw, ch) * 0.04);
  const x = { left: margin, center: Math.round((cw - w) / 2), right: cw - w - margin };
  const y = { top: margin, middle: Math.round((ch - h) / 2), bottom: ch - h - margin };
  const spots: Record<Exclude<Placement, 'fill' | 'fit'>, [number, number]> = {
    center: [x.center, y.middle],
    'top-left': [x.left, y.top],
    top: [x.center, y.top],
    'top-right': [x.right, y.top],
    left: [x.left, y.middle],
    right: [x.right, y.middle],
    'bottom-left': [x.left, y.bottom],
    bottom: [x.center, y.bottom],
    'bottom-right': [x.right, y.bottom],
    below: [x.center, previous ? previous.top + previous.height + Math.round(margin / 2) : y.middle],
  };
  const [left, top] = at === 'fill' || at === 'fit' ? [0, 0] : spots[at];
  const clippedLeft = Math.max(0, left);
  const clippedTop = Math.max(0, top);
  return {
    left: clippedLeft,
    top: clippedTop,
    width: Math.min(w, cw - clippedLeft),
    height: Math.min(h, ch - clippedTop),
  };
}

/** Where an image layer's picture comes from: its bytes, read by the caller within the roots or allowed origins. */
export type PictureSource = (spec: ImageLayerSpec) => Promise<Buffer>;
export type ImageLayerSpec = Extract<LayerSpec, { kind: 'image' }>;

async function imageLayer(
  canvas: Canvas,
  spec: ImageLayerSpec,
  bytes: Buffer,
  size: [number, number],
  at: Placement,
  previous: Box | undefined,
): Promise<Box & { data: Uint8ClampedArray }> {
  let picture: Awaited<ReturnType<Canvas['loadImage']>>;
  try {
    // Bytes only: given a string, the canvas library would open a file or fetch a URL itself.
    picture = await canvas.loadImage(bytes);
  } catch (error) {
    throw new LiftError(
      'NOT_FOUND',
      `Layer '${spec.name}': no picture could be read from ${spec.file ?? spec.url}.`,
      { hint: 'Give a PNG, JPEG or WebP file.', cause: error },
    );
  }
  const [cw, ch] = size;
  let w: number;
  let h: number;
  if (at === 'fill' || at === 'fit') {
    const ratio =
      at === 'fill'
        ? Math.max(cw / picture.width, ch / picture.height)
        : Math.min(cw / picture.width, ch / picture.height);
    [w, h] = [Math.round(picture.width * ratio), Math.round(picture.height * ratio)];
  } else {
    const share = spec.scale ?? 0.25;
    w = Math.max(1, Math.round(cw * share));
    h = Math.max(1, Math.round((picture.height * w) / picture.width));
  }
  const box =
    at === 'fill' || at === 'fit'
      ? { left: 0, top: 0, width: cw, height: ch }
      : position(at, w, h, size, previous);
  const surface = canvas.createCanvas(box.width, box.height);
  const context = surface.getContext('2d');
  const [dx, dy] =
    at === 'fill' || at === 'fit' ? [Math.round((cw - w) / 2), Math.round((ch - h) / 2)] : [0, 0];
  context.drawImage(picture, dx, dy, w, h);
  return { ...box, data: context.getImageData(0, 0, box.width, box.height).data };
}

function textLayer(
  canvas: Canvas,
  spec: Extract<LayerSpec, { kind: 'text' }>,
  size: [number, number],
  at: Placement,
  first: boolean,
  previous: Box | undefined,
): Box & { data: Uint8ClampedArray; fontSize: number } {
  const fontSize = spec.size ?? Math.round(size[1] * (first ? 0.12 : 0.07));
  const probe = canvas.createCanvas(1, 1).getContext('2d');
  probe.font = `${fontSize}px "${FONT}"`;
  const metrics = probe.measureText(spec.text);
  const pad = Math.ceil(fontSize * 0.15);
  const w = Math.ceil(metrics.width) + 2 * pad;
  const h = Math.ceil(metrics.actualBoundingBoxAscent + metrics.actualBoundingBoxDescent) + 2 * pad;
  const box = position(at, w, h, size, previous);
  const surface = canvas.createCanvas(box.width, box.height);
  const context = surface.getContext('2d');
  context.font = `${fontSize}px "${FONT}"`;
  context.fillStyle = hex(spec.color);
  context.fillText(spec.text, pad, pad + metrics.actualBoundingBoxAscent);
  return { ...box, data: context.getImageData(0, 0, box.width, box.height).data, fontSize };
}

/** Turns each layer into its pixels and box: pictures fitted, text set in DejaVu Sans Bold. */
export async function placeLayers(
  specs: LayerSpec[],
  size: [number, number],
  pictures?: PictureSource,
): Promise<PlacedLayer[]> {
  const canvas: Canvas = await import('@napi-rs/canvas');
  if (!canvas.GlobalFonts.has(FONT)) canvas.GlobalFonts.registerFromPath(FONT_FILE, FONT);
  const placed: PlacedLayer[] = [];
  let firstText = true;
  for (const [index, spec] of specs.entries()) {
    const previous = placed[placed.length - 1];
    if (spec.kind === 'color') {
      const data = new Uint8ClampedArray(size[0] * size[1] * 4);
      const value = hex(spec.color);
      const rgb = [1, 3, 5].map((offset) => Number.parseInt(value.slice(offset, offset + 2), 16));
      for (let i = 0; i < data.length; i += 4) data.set([rgb[0]!, rgb[1]!, rgb[2]!, 255], i);
      placed.push({
        name: spec.name,
        kind: spec.kind,
        left: 0,
        top: 0,
        width: size[0],
        height: size[1],
        data,
      });
    } else if (spec.kind === 'image') {
      const at = spec.at ?? (index === 0 ? 'fill' : 'center');
      if (!pictures) throw new Error(`Layer '${spec.name}' is a picture, and no picture source was given.`);
      placed.push({
        name: spec.name,
        kind: spec.kind,
        ...(await imageLayer(canvas, spec, await pictures(spec), size, at, previous)),
      });
    } else {
      const at = spec.at ?? (firstText ? 'center' : 'below');
      const { fontSize, ...layer } = textLayer(canvas, spec, size, at, firstText, previous);
      placed.push({
        name: spec.name,
        kind: spec.kind,
        ...layer,
        text: { text: spec.text, size: fontSize, color: hex(spec.color) },
      });
      firstText = false;
    }
  }
  return placed;
}

/** The layers stacked bottom first (normal blending), as the flattened picture a PSD carries. */
export function stack(layers: PlacedLayer[], size: [number, number]): Uint8ClampedArray {
  const [cw, ch] = size;
  const out = new Uint8ClampedArray(cw * ch * 4);
  for (const layer of layers) {
    for (let y = 0; y < layer.height; y += 1) {
      for (let x = 0; x < layer.width; x += 1) {
        const s = (y * layer.width + x) * 4;
        const d = ((layer.top + y) * cw + layer.left + x) * 4;
        const a = (layer.data[s + 3] ?? 0) / 255;
        if (a === 0) continue;
        const below = (out[d + 3] ?? 0) / 255;
        const alpha = a + below * (1 - a);
        for (let c = 0; c < 3; c += 1) {
          out[d + c] = Math.round(
            ((layer.data[s + c] ?? 0) * a + (out[d + c] ?? 0) * below * (1 - a)) / alpha,
          );
        }
        out[d + 3] = Math.round(alpha * 255);
      }
    }
  }
  return out;
}
