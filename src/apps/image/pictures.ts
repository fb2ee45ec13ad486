import type { ToolContext } from '../../contract/context.js';
import type { PathScope, UrlScope } from '../../contract/paths.js';
import { readInRoots } from '../../rungs/file/read-in-roots.js';
import type { LayerSpec } from './layers.js';

type ImageLayer = Extract<LayerSpec, { kind: 'image' }>;

/** The largest picture a layer may come from, on disk or over the web: the read stops there. */
export const MAX_PICTURE_BYTES = 50 * 1024 * 1024;

const imageLayers = (layers: readonly LayerSpec[]): ImageLayer[] =>
  layers.filter((layer): layer is ImageLayer => layer.kind === 'image');

const fileScope = (layer: ImageLayer): PathScope => ({ family: 'image', what: `Layer '${layer.name}' file` });

const urlScope = (layer: ImageLayer): UrlScope => ({
  family: 'image',
  what: `Layer '${layer.name}' url`,
  maxBytes: MAX_PICTURE_BYTES,
});

/** The pictures the layers name by path, each held to the image family's roots. */
export function picturePaths(layers: readonly LayerSpec[]): Array<{ path: string; scope: PathScope }> {
  return imageLayers(layers).flatMap((layer) =>
    layer.file === undefined ? [] : [{ path: layer.file, scope: fileScope(layer) }],
  );
}

/** The pictures the layers name by URL, each held to the origins the operator allows for images. */
export function pictureUrls(layers: readonly LayerSpec[]): Array<{ url: string; scope: UrlScope }> {
  return imageLayers(layers).flatMap((layer) =>
    layer.url === undefined ? [] : [{ url: layer.url, scope: urlScope(layer) }],
  );
}

/**
 * The bytes of a layer's picture: its file inside the roots, or its URL on an allowed origin,
 * never more than MAX_PICTURE_BYTES. The canvas library is given bytes only, never a name it
 * could open or fetch itself.
 */
export async function pictureBytes(layer: ImageLayer, ctx: ToolContext): Promise<Buffer> {
  if (layer.url !== undefined) return ctx.fetchUrl(layer.url, urlScope(layer));
  if (layer.file === undefined) throw new Error(`Layer '${layer.name}' names no picture.`);
  const { bytes } = await readInRoots(ctx, layer.file, fileScope(layer), {
    maxBytes: MAX_PICTURE_BYTES,
    field: 'layers',
    hint: `Give a PNG, JPEG or WebP file of at most ${MAX_PICTURE_BYTES / 1_048_576} MB.`,
  });
  return bytes;
}
