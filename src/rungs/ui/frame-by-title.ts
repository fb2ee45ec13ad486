import type { Frame, Page } from 'playwright-core';
import type { FramePath } from './locator-format.js';
import { PageTracker } from './page-tracker.js';
import { answerWithin } from './settle.js';
import type { ActEnvironment } from './step.js';

/** How long a frame is looked for when no document is on its way: a wrong name answers soon. */
const FRAME_LOOKUP_MS = 1_000;

/**
 * The frame a navigate or reload action names: the main frame without a path, else the frame
 * whose iframes carry those titles (or names), level by level; undefined when there is none.
 */
export async function frameFor(env: ActEnvironment, path: FramePath | undefined): Promise<Frame | undefined> {
  const { page } = env;
  if (!path?.length) return page.mainFrame();
  const found = attachedFrame(page, path) ?? (await frameByTitle(page, path, FRAME_LOOKUP_MS, env.deadline));
  if (found) return found;
  // The page holding the frame may still be coming (a sign-in's redirect to the app's shell on
  // a loaded machine): while a document is in flight or just came, it is looked for on the page that lands.
  const arrived = await PageTracker.of(page).documentArrived(FRAME_LOOKUP_MS, env.deadline - Date.now());
  return arrived ? frameByTitle(page, path, FRAME_LOOKUP_MS, env.deadline) : undefined;
}

/**
 * The frame the path names among the frames already attached, by each frame's name, with no
 * look at the page; undefined when one level is not there (its name may be an iframe's title).
 */
function attachedFrame(page: Page, frame: FramePath): Frame | undefined {
  let scope = page.mainFrame();
  for (const title of frame) {
    const child = scope.childFrames().find((candidate) => candidate.name() === title);
    const byTitle = child ?? undefined;
    if (byTitle) scope = byTitle;
    else return undefined;
  }
  return scope;
}

/**
 * Frames are named by their title in targets: the iframe element with that title, level by
 * level. A look that misses its clock is asked once more without one (bounded by the step's
 * deadline) before a frame is called missing: a renderer starved on a loaded machine answers
 * late, and its frame is there all the same.
 */
async function frameByTitle(page: Page, path: FramePath, timeoutMs: number, deadline: number) {
  let scope = page.mainFrame();
  for (const title of path) {
    const iframe = scope.locator(
      `iframe[title=${JSON.stringify(title)}], iframe[name=${JSON.stringify(title)}]`,
    );
    let handle = await iframe.elementHandle({ timeout: timeoutMs }).catch(() => null);
    if (!handle && ((await answerWithin(iframe.count(), deadline - Date.now())) ?? 0) > 0) {
      handle = await iframe
        .first()
        .elementHandle({ timeout: Math.max(500, deadline - Date.now()) })
        .catch(() => null);
    }
    const next = await handle?.contentFrame();
    await handle?.dispose();
    if (!next) return undefined;
    scope = next;
  }
  return scope;
}
