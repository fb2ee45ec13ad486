import type { Frame, Page } from 'playwright-core';
import type { FramePath } from './locator-format.js';
import { PageTracker } from './page-tracker.js';

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

/**
 * The frame a target's frame path names, known without asking the page: each level one child
 * frame whose name or already-read title (frameAt reads them) is the path's name, and no other
 * child whose title is unknown for the document it shows. Undefined otherwise, and the caller
 * goes through a frame locator, which finds the iframe element again on every call: a look in a
 * frame known here is one round trip to the renderer instead of five.
 */
export function knownFrame(page: Page, path: FramePath): Frame | undefined {
  if (path.length === 0) return undefined;
  let scope = page.mainFrame();
  for (const name of path) {
    let match: Frame | undefined;
    for (const child of scope.childFrames()) {
      if (child.name() !== name) {
        const title = knownTitle(child);
        if (title === undefined) return undefined;
        if (title !== name) continue;
      }
      if (match) return undefined;
      match = child;
    }
    if (!match || match.isDetached()) return undefined;
    scope = match;
  }
  return scope;
}

/** The iframe title read for the document the frame shows now; undefined when not read (null: none). */
function knownTitle(frame: Frame): string | null | undefined {
  const known = titles.get(frame);
  return known && known.document === shownIn(frame) ? known.title : undefined;
}

function shownIn(frame: Frame): string {
  return `${PageTracker.of(frame.page()).frameLoads(frame)} ${frame.url()}`;
}

/**
 * Titles read, per frame and the document it showed then (its URL and how many documents it
 * had committed): the title is the parent's iframe attribute, which lasts as long as the Frame
 * object (a re-rendered iframe is a new frame); an app that retitles its iframe does so as
 * the frame shows another page, a new document or a new URL.
 */
const titles = new WeakMap<Frame, { document: string; title: string | null }>();

/** The title of the iframe element holding `frame`, read inside it; undefined across origins. */
async function ownTitle(frame: Frame): Promise<string | undefined> {
  const document = shownIn(frame);
  const known = titles.get(frame);
  if (known?.document === document) return known.title ?? undefined;
  const title = await frame
    .evaluate(() => {
      const element = window.frameElement;
      return element ? element.getAttribute('title') : null;
    })
    .catch(() => undefined);
  // A read that failed, or that a navigation overtook, is not remembered.
  if (title !== undefined && shownIn(frame) === document) titles.set(frame, { document, title });
  return title ?? undefined;
}
