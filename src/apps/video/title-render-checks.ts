import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { ToolContext } from '../../contract/context.js';
import type { Check } from '../../contract/envelope.js';
import { launchBrowser } from '../../rungs/ui/browser.js';
import { safeArea, type TitlePlan } from './title.js';

type Limits = Pick<ToolContext, 'deadline' | 'signal'>;
type Page = Awaited<ReturnType<Awaited<ReturnType<typeof launchBrowser>>['newPage']>>;

/** A pixel is the title's when its red, green and blue differ from the background's by this much in all. */
const INK = 60;

/** Stray pixels a frame may have and still count as empty (none are expected). */
const STRAY = 8;

/** What one frame shows: the title's pixels, their box, and how strongly they differ from the background. */
export interface FrameInk {
  frame: number;
  pixels: number;
  /** Pixels within INK of the text colour. */
  textPixels: number;
  box?: { left: number; top: number; right: number; bottom: number };
  /** The title pixels' mean difference from the background, 0 to 765. */
  strength: number;
}

/** lottie-web's player that draws SVG (the renderer that sets a font's weight, unlike its canvas one). */
function playerScript(): Promise<string> {
  const path = createRequire(import.meta.url).resolve('lottie-web/build/player/lottie_svg.min.js');
  return readFile(path, 'utf8');
}

const channels = (hex: string) => [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
const distance = (a: number[], b: number[]) =>
  a.reduce((sum, value, index) => sum + Math.abs(value - (b[index] ?? 0)), 0);

/**
 * The page behind a title without a background: black, white or mid grey, the first that stands
 * well apart from the text and the box (as a person would preview it), else the farthest of those
 * and the two keying colours.
 */
export function backdrop(plan: TitlePlan): string {
  if (plan.colors.background) return plan.colors.background;
  const own = [plan.colors.text, plan.colors.box].filter((color): color is string => color !== undefined);
  const score = (color: string) => Math.min(...own.map((mine) => distance(channels(color), channels(mine))));
  const plain = ['#000000', '#ffffff', '#808080'].find((color) => score(color) >= 3 * INK);
  return (
    plain ??
    ['#000000', '#ffffff', '#808080', '#00ff00', '#ff00ff'].reduce((best, color) =>
      score(color) > score(best) ? color : best,
    )
  );
}

/** Reads a screenshot with @napi-rs/canvas (not the browser that drew it) and finds the title's pixels. */
async function inkOf(png: Buffer, frame: number, background: string, text: string): Promise<FrameInk> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(png);
  const context = createCanvas(image.width, image.height).getContext('2d');
  context.drawImage(image, 0, 0);
  const { data, width, height } = context.getImageData(0, 0, image.width, image.height);
  const [br, bg, bb] = channels(background) as [number, number, number];
  const [tr, tg, tb] = channels(text) as [number, number, number];
  let [pixels, textPixels, strength] = [0, 0, 0];
  let [left, top, right, bottom] = [width, height, -1, -1];
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 4;
      const [r, g, b] = [data[at] ?? 0, data[at + 1] ?? 0, data[at + 2] ?? 0];
      const off = Math.abs(r - br) + Math.abs(g - bg) + Math.abs(b - bb);
      if (off < INK) continue;
      pixels += 1;
      strength += off;
      if (Math.abs(r - tr) + Math.abs(g - tg) + Math.abs(b - tb) < INK) textPixels += 1;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  const ink: FrameInk = { frame, pixels, textPixels, strength: pixels > 0 ? strength / pixels : 0 };
  if (pixels > STRAY) ink.box = { left, top, right: right + 1, bottom: bottom + 1 };
  return ink;
}

/** Loads the Lottie text into lottie-web in the page and waits until its DOM is built. */
async function load(page: Page, lottie: string, plan: TitlePlan, background: string) {
  await page.route('**', (route) => route.abort());
  await page.setContent(
    `<!doctype html><html><body style="margin:0;background:${background}"><div id="title" style="width:${plan.width}px;height:${plan.height}px"></div></body></html>`,
  );
  await page.addScriptTag({ content: await playerScript() });
  return page.evaluate(
    (text) =>
      new Promise<{ frames: number; rate: number }>((resolve, reject) => {
        const player = (window as unknown as { lottie: { loadAnimation(options: object): LottieItem } })
          .lottie;
        type LottieItem = {
          totalFrames: number;
          frameRate: number;
          addEventListener(name: string, listener: () => void): void;
          goToAndStop(frame: number, isFrame: boolean): void;
        };
        const item = player.loadAnimation({
          container: document.getElementById('title'),
          renderer: 'svg',
          loop: false,
          autoplay: false,
          animationData: JSON.parse(text),
        });
        (window as unknown as { title: LottieItem }).title = item;
        item.addEventListener('DOMLoaded', () => resolve({ frames: item.totalFrames, rate: item.frameRate }));
        item.addEventListener('data_failed', () => reject(new Error('lottie-web could not read the data')));
      }),
    lottie,
  );
}

/** The frames worth drawing: first, middle of the in, the middle of the hold, middle of the out, last. */
export function framesToDraw(plan: TitlePlan) {
  const last = plan.frames - 1;
  return {
    first: 0,
    entering: Math.floor(plan.held / 2),
    hold: plan.held + Math.floor((plan.leaves - plan.held) / 2),
    leaving: plan.leaves + Math.floor((last - plan.leaves) / 2),
    last,
  };
}

export type Drawn = Record<keyof ReturnType<typeof framesToDraw>, FrameInk>;

/**
 * Draws the chosen frames of the Lottie text with lottie-web in Chromium (no network: every
 * request is refused), screenshots the player, and measures each screenshot. `save` keeps the
 * first, hold and last screenshots as PNG files for a person to look at.
 */
export async function drawFrames(
  lottie: string,
  plan: TitlePlan,
  limits: Limits,
  save?: Partial<Record<'first' | 'hold' | 'last', string>>,
): Promise<{ loaded: { frames: number; rate: number }; drawn: Drawn; background: string }> {
  const background = backdrop(plan);
  const browser = await launchBrowser();
  const abort = () => void browser.close().catch(() => undefined);
  limits.signal.addEventListener('abort', abort, { once: true });
  try {
    const page = await browser.newPage({ viewport: { width: plan.width, height: plan.height } });
    page.setDefaultTimeout(Math.max(1000, limits.deadline - Date.now()));
    const loaded = await load(page, lottie, plan, background);
    const wanted = framesToDraw(plan);
    const drawn: Partial<Drawn> = {};
    for (const [label, frame] of Object.entries(wanted) as Array<[keyof Drawn, number]>) {
      await page.evaluate(
        (at) =>
          (window as unknown as { title: { goToAndStop(f: number, b: boolean): void } }).title.goToAndStop(
            at,
            true,
          ),
        frame,
      );
      // The player fills the viewport from its top left corner: the page's picture is the player's.
      const png = await page.screenshot({ type: 'png' });
      const path = save?.[label as 'first' | 'hold' | 'last'];
      if (path) await writeFile(path, png, { mode: 0o600 });
      drawn[label] = await inkOf(png, frame, background, plan.colors.text);
    }
    return { loaded, drawn: drawn as Drawn, background };
  } finally {
    limits.signal.removeEventListener('abort', abort);
    await browser.close().catch(() => undefined);
  }
}

const boxText = (box: FrameInk['box']) =>
  box ? `${box.left},${box.top} to ${box.right},${box.bottom}` : 'nothing';
const centreY = (box: NonNullable<FrameInk['box']>) => (box.top + box.bottom) / 2;
const widthOf = (box: NonNullable<FrameInk['box']>) => box.right - box.left;

/** Whether the middle of an in or out shows what the style says, against the hold. */
function motion(plan: TitlePlan, middle: FrameInk, hold: FrameInk, rising: number): string | undefined {
  if (middle.frame === 0 || middle.frame === plan.frames - 1) return undefined;
  if (!middle.box || !hold.box) return `frame ${middle.frame} shows no title`;
  if (plan.style === 'slide_up') {
    // Entering it is still below its place; leaving, already above.
    const moved = (centreY(middle.box) - centreY(hold.box)) * rising;
    return moved > 2 ? undefined : `frame ${middle.frame} is not ${rising > 0 ? 'below' : 'above'} the hold`;
  }
  if (plan.style === 'scale') {
    const share = widthOf(middle.box) / widthOf(hold.box);
    return share < 0.98 && share > 0.5
      ? undefined
      : `frame ${middle.frame} is ${Math.round(share * 100)}% of the hold's width`;
  }
  const still = (['left', 'top', 'right', 'bottom'] as const).every(
    (side) => Math.abs(middle.box![side] - hold.box![side]) <= 3,
  );
  const faded = middle.strength < hold.strength * 0.9;
  return still && faded
    ? undefined
    : `frame ${middle.frame} is ${still ? 'not fainter than' : 'not where'} the hold`;
}

/**
 * The checks on the drawn frames: lottie-web read the file as planned; the first and last frames
 * show nothing of the title and the hold shows it, with the text's colour, and the middles of the
 * in and out move as the style says; the title's pixels at the hold lie inside title safe.
 */
export function frameChecks(
  plan: TitlePlan,
  loaded: { frames: number; rate: number },
  drawn: Drawn,
  background: string,
): Check[] {
  const rate = plan.rate.num / plan.rate.den;
  const readAsPlanned = loaded.frames === plan.frames && Math.abs(loaded.rate - rate) < 1e-6;
  const empty = (ink: FrameInk) => ink.pixels <= STRAY;
  const problems = [
    ...(empty(drawn.first) ? [] : [`frame 0 shows ${drawn.first.pixels} title pixels`]),
    ...(empty(drawn.last) ? [] : [`the last frame shows ${drawn.last.pixels} title pixels`]),
    ...(drawn.hold.textPixels > 0
      ? []
      : [`the hold (frame ${drawn.hold.frame}) shows no pixel of the text colour`]),
    ...[motion(plan, drawn.entering, drawn.hold, 1), motion(plan, drawn.leaving, drawn.hold, -1)].filter(
      (problem): problem is string => problem !== undefined,
    ),
  ];
  const safe = safeArea(plan.width, plan.height);
  const box = drawn.hold.box;
  const inside =
    box !== undefined &&
    box.left >= safe.left &&
    box.top >= safe.top &&
    box.right <= safe.right &&
    box.bottom <= safe.bottom;
  return [
    {
      name: 'lottie_renders',
      passed: readAsPlanned,
      detail: `lottie-web ${readAsPlanned ? 'played' : 'read'} the file in Chromium${plan.colors.background ? '' : ` over a ${background} page`}: ${loaded.frames} frames at ${Math.round(loaded.rate * 1000) / 1000} fps${readAsPlanned ? '' : `, where the title has ${plan.frames} at ${Math.round(rate * 1000) / 1000}`}.`,
    },
    {
      name: 'frames_as_style',
      passed: problems.length === 0,
      detail:
        problems.length === 0
          ? `${plan.style}: frames 0 and ${drawn.last.frame} show no title; the hold (frame ${drawn.hold.frame}) shows ${drawn.hold.pixels} title pixels, ${drawn.hold.textPixels} of the text colour; frames ${drawn.entering.frame} and ${drawn.leaving.frame} are mid-${plan.style === 'slide_up' ? 'slide' : plan.style}.`
          : `${plan.style}: ${problems.join('; ')}.`,
    },
    {
      name: 'text_in_safe_area',
      passed: inside,
      detail: `At the hold the title covers ${boxText(box)}; title safe is ${Math.round(safe.left)},${Math.round(safe.top)} to ${Math.round(safe.right)},${Math.round(safe.bottom)}.`,
    },
  ];
}
