import { type Key, rgb, type TitlePlan } from './title.js';

/**
 * The title as Lottie JSON (the Bodymovin schema lottie-web plays): a text layer whose text
 * document names the font of the fonts list, over an optional box (a shape layer) and an optional
 * background (a solid), each with the same transform keyframes.
 */

/**
 * After Effects' Easy Ease: speed 0 and 33.33% influence on both sides of every key, which is
 * cubic-bezier(0.333, 0, 0.667, 1) between two keys. The ExtendScript sets the same ease.
 */
const EASE_OUT = { x: [0.333], y: [0] };
const EASE_IN = { x: [0.667], y: [1] };

/** The Lottie version these files follow (lottie-web 5 reads it). */
export const LOTTIE_VERSION = '5.7.4';

type Value = number | number[];

/** A property: static when it has one key, else keyframes eased in and out, the last one a hold. */
function animated<T extends Value>(keys: Key<T>[], shape: (value: T) => number[] | number) {
  if (keys.length === 1) return { a: 0, k: shape(keys[0]!.value) };
  return {
    a: 1,
    k: keys.map((key, index) => {
      const start = { t: key.frame, s: [shape(key.value)].flat() };
      return index === keys.length - 1 ? start : { ...start, i: EASE_IN, o: EASE_OUT };
    }),
  };
}

function transform(plan: TitlePlan) {
  return {
    o: animated(plan.opacity, (value) => value),
    r: { a: 0, k: 0 },
    p: animated(plan.position, ([x, y]) => [x, y, 0]),
    a: { a: 0, k: [plan.anchor[0], plan.anchor[1], 0] },
    s: animated(plan.scale, ([x, y]) => [x, y, 100]),
  };
}

function layer(plan: TitlePlan, index: number, name: string, type: number) {
  return { ddd: 0, ind: index, ty: type, nm: name, sr: 1, ao: 0, ip: 0, op: plan.frames, st: 0, bm: 0 };
}

export function writeLottie(plan: TitlePlan): string {
  const layers: object[] = [
    {
      ...layer(plan, 1, 'Title', 5),
      ks: transform(plan),
      t: {
        d: {
          k: [
            {
              s: {
                s: plan.size,
                f: plan.font.postscript,
                t: plan.lines.join('\r'),
                j: 2,
                tr: 0,
                lh: plan.lineHeight,
                ls: 0,
                fc: rgb(plan.colors.text),
              },
              t: 0,
            },
          ],
        },
        p: {},
        m: { g: 1, a: { a: 0, k: [0, 0] } },
        a: [],
      },
    },
  ];
  if (plan.box && plan.colors.box)
    layers.push({
      ...layer(plan, 2, 'Box', 4),
      ks: transform(plan),
      shapes: [
        {
          ty: 'gr',
          nm: 'Box',
          it: [
            {
              ty: 'rc',
              nm: 'Rectangle',
              d: 1,
              p: { a: 0, k: plan.anchor },
              s: { a: 0, k: [plan.box.width, plan.box.height] },
              r: { a: 0, k: 0 },
            },
            { ty: 'fl', nm: 'Fill', c: { a: 0, k: [...rgb(plan.colors.box), 1] }, o: { a: 0, k: 100 }, r: 1 },
            {
              ty: 'tr',
              p: { a: 0, k: [0, 0] },
              a: { a: 0, k: [0, 0] },
              s: { a: 0, k: [100, 100] },
              r: { a: 0, k: 0 },
              o: { a: 0, k: 100 },
            },
          ],
        },
      ],
    });
  if (plan.colors.background)
    layers.push({
      ...layer(plan, 3, 'Background', 1),
      ks: {
        o: { a: 0, k: 100 },
        r: { a: 0, k: 0 },
        p: { a: 0, k: [plan.width / 2, plan.height / 2, 0] },
        a: { a: 0, k: [plan.width / 2, plan.height / 2, 0] },
        s: { a: 0, k: [100, 100, 100] },
      },
      sc: plan.colors.background,
      sw: plan.width,
      sh: plan.height,
    });
  const animation = {
    v: LOTTIE_VERSION,
    nm: plan.name,
    fr: plan.rate.num / plan.rate.den,
    ip: 0,
    op: plan.frames,
    w: plan.width,
    h: plan.height,
    ddd: 0,
    assets: [],
    fonts: {
      list: [
        {
          fName: plan.font.postscript,
          fFamily: plan.font.family,
          fStyle: plan.font.style,
          fWeight: plan.font.bold ? '700' : '400',
          ascent: plan.fontAscent,
        },
      ],
    },
    layers,
    markers: [],
  };
  return `${JSON.stringify(animation)}\n`;
}
