import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import type { Check } from '../../contract/envelope.js';
import { type LottieTransform, type ReadKeys, scriptCheck } from './jsx-checks.js';
import type { TitlePlan } from './title.js';
import { drawFrames, frameChecks } from './title-render-checks.js';

type Limits = Pick<ToolContext, 'deadline' | 'signal'>;

interface LottieProperty {
  a?: number;
  k?: unknown;
}

/** A Lottie property's keys: one at frame 0 when it is static. */
function keysOf(property: LottieProperty | undefined): ReadKeys {
  if (!property) return [];
  if (property.a !== 1) return [{ frame: 0, value: [property.k as number | number[]].flat() }];
  return (property.k as Array<{ t: number; s: number[] }>).map((key) => ({ frame: key.t, value: key.s }));
}

/** The text layer's transform keys, as the written JSON has them. */
export function lottieTransform(json: unknown): LottieTransform {
  const layers =
    (json as { layers?: Array<{ ty?: number; ks?: Record<string, LottieProperty> }> }).layers ?? [];
  const text = layers.find((layer) => layer.ty === 5);
  return { Opacity: keysOf(text?.ks?.o), Position: keysOf(text?.ks?.p), Scale: keysOf(text?.ks?.s) };
}

export interface TitleFiles {
  lottie: string;
  jsx: string;
}

/**
 * Every check, on the files as they are on disk: lottie-web in Chromium plays the Lottie file and
 * its frames are measured (lottie_renders, frames_as_style, text_in_safe_area), and acorn reads the
 * .jsx (jsx_builds_same_comp). A test may call it on a file it changed.
 */
export async function titleChecks(
  files: TitleFiles,
  plan: TitlePlan,
  limits: Limits,
  save?: Partial<Record<'first' | 'hold' | 'last', string>>,
): Promise<Check[]> {
  const [lottieText, jsxText] = await Promise.all([
    readFile(files.lottie, 'utf8'),
    readFile(files.jsx, 'utf8'),
  ]);
  let json: unknown;
  try {
    json = JSON.parse(lottieText);
  } catch (error) {
    return [
      {
        name: 'lottie_renders',
        passed: false,
        detail: `${basename(files.lottie)} is not JSON: ${(error as Error).message}`,
      },
    ];
  }
  const played = async (): Promise<Check[]> => {
    try {
      const { loaded, drawn, background } = await drawFrames(lottieText, plan, limits, save);
      return frameChecks(plan, loaded, drawn, background);
    } catch (error) {
      if (limits.signal.aborted) throw error;
      return [
        {
          name: 'lottie_renders',
          passed: false,
          detail: `lottie-web did not play ${basename(files.lottie)} in Chromium: ${(error as Error).message}`,
        },
      ];
    }
  };
  // acorn reads the script while Chromium starts.
  const [frames, script] = await Promise.all([played(), scriptCheck(jsxText, plan, lottieTransform(json))]);
  return [...frames, script];
}
