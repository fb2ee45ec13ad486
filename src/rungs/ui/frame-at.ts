import type { Frame, Page } from 'playwright-core';
import type { FramePath } from './locator.js';

/**
 * The frame a target's frame path names, found without an element handle: by each child
 * frame's name, else by its iframe's title read from inside the child (`window.frameElement`,
 * same-origin frames only). Undefined when a level matches no frame or several (a frame
 * locator would refuse those too), or when a frame of another origin has only a title:
 * callers then look through a locator instead.
 *
 * Why not the locator: a Playwright call on an element handle in the page's own world
 * (`locator.evaluate`, `evaluateAll`, `boundingBox`) costs 40–50 ms the first time in each
 * document, against a few ms for `frame.evaluate`; a replay touches three or four documents.
 */
export async function frameAt(page: Page, path: FramePath): Promise<Frame | undefined> {
  let scope = page.mainFrame();
  for (const name of path) {
    const children = scope.childFrames();
    let matches = children.filter((child) => child.name() === name);
    if (matches.length === 0) {
      const titles = await Promise.all(children.map((child) => ownTitle(child)));
      matches = children.filter((_, index) => titles[index] === name);
    }
    if (matches.length !== 1) return undefined;
    scope = matches[0]!;
  }
  return scope;
}

/** The title of the iframe element holding `frame`, read inside it; undefined across origins. */
async function ownTitle(frame: Frame): Promise<string | undefined> {
  const title = await frame
    .evaluate(() => {
      const element = window.frameElement;
      return element ? element.getAttribute('title') : null;
    })
    .catch(() => null);
  return title ?? undefined;
}
