import type { Check } from '../../contract/envelope.js';

export interface Silhouette {
  width: number;
  height: number;
  /** Share of the frame the house covers. */
  coverage: number;
  /** Opaque pixels on the outermost rows and columns: the house is cut off where there are any. */
  edgePixels: number;
  /** Pixels of clear frame left on each side of the house. */
  clearance: { left: number; right: number; top: number; bottom: number };
}

/** Reads a silhouette mask (white where the house is) with a decoder other than Blender's. */
export async function readSilhouette(path: string): Promise<Silhouette> {
  const { loadImage, createCanvas } = await import('@napi-rs/canvas');
  const image = await loadImage(path);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data, width, height } = context.getImageData(0, 0, image.width, image.height);
  let covered = 0;
  let edge = 0;
  let [left, right, top, bottom] = [width, -1, height, -1];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if ((data[(y * width + x) * 4] ?? 0) < 128) continue;
      covered += 1;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) edge += 1;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return {
    width,
    height,
    coverage: covered / (width * height),
    edgePixels: edge,
    clearance: { left, right: width - 1 - right, top, bottom: height - 1 - bottom },
  };
}

/** Two checks per view: the house is in the picture, and nowhere cut off by the frame. */
export function pictureChecks(
  view: string,
  mask: Silhouette,
  expected: { width: number; height: number },
): Check[] {
  const sized = mask.width === expected.width && mask.height === expected.height;
  const { left, right, top, bottom } = mask.clearance;
  return [
    {
      name: `picture_${view}_shows_house`,
      passed: sized && mask.coverage > 0.08 && mask.coverage < 0.95,
      detail: `${mask.width}x${mask.height} px; the house covers ${(mask.coverage * 100).toFixed(0)}% of the frame.`,
    },
    {
      name: `picture_${view}_not_cut_off`,
      passed: mask.edgePixels === 0 && Math.min(left, right, top, bottom) >= 2,
      detail: `silhouette mask: ${mask.edgePixels} house pixels on the frame edge; clear margin left ${left}, right ${right}, top ${top}, bottom ${bottom} px.`,
    },
  ];
}
