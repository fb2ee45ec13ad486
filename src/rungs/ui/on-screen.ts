import type { Locator } from 'playwright-core';

/**
 * Whether an element's centre lies inside its window, where a pointer reaches it, asked in
 * Playwright's utility world through a selector engine of our own: `locator.evaluate` runs in
 * the page's world, whose first element call in each document costs 40–90 ms on these
 * machines, against a few ms here; a replay clicks in two or three documents.
 */
const ENGINE = 'lift-centre-on-screen';

/** In the page: whether an element's centre lies inside its window. Source text: no bundler helpers. */
const CENTRE_INSIDE = `(element) => {
  const box = element.getBoundingClientRect();
  const view = element.ownerDocument.defaultView;
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  return box.width > 0 && x >= 0 && y >= 0 && x <= (view?.innerWidth ?? 0) && y <= (view?.innerHeight ?? 0);
}`;

/** Matches its root element alone when that element's centre is inside the window. */
const ENGINE_SOURCE = `({
  query(root) { return this.queryAll(root)[0] ?? null; },
  queryAll(root) { return (${CENTRE_INSIDE})(root) ? [root] : []; },
})`;

const centreInside = new Function(`return ${CENTRE_INSIDE}`)() as (element: Element) => boolean;

let registered: Promise<boolean> | undefined;

/** Registers the engine once per process; false when this Playwright refuses it. */
function engineReady(): Promise<boolean> {
  // Loaded here, not on import: starting Lift loads no browser library (architecture test).
  registered ??= import('playwright-core')
    .then(({ selectors }) => selectors.register(ENGINE, { content: ENGINE_SOURCE }, { contentScript: true }))
    .then(
      () => true,
      // Registered already under this name (a second copy of this module): it is the same engine.
      (error: Error) => /already been registered/.test(error.message),
    );
  return registered;
}

/** Whether the element's centre lies inside its window (what a pointer can reach). */
export async function centreOnScreen(locator: Locator): Promise<boolean> {
  if (await engineReady()) {
    try {
      return (await locator.locator(`${ENGINE}=centre`).count()) === 1;
    } catch {
      // A document set up before the engine was registered does not know it.
    }
  }
  // The same question in the page's world: for a document whose scripts predate the engine.
  return locator.evaluate(centreInside).catch(() => false);
}
