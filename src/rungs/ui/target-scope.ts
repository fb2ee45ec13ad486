import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { knownFrame } from './frame-at.js';
import type { FramePath, Target } from './locator-format.js';

/** Where a target's locator is resolved: the page, or the iframes its frame path names. */
export function frameScope(page: Page, frames: FramePath): Page | Frame | FrameLocator {
  const known = knownFrame(page, frames);
  if (known) return known;
  let scope: Page | FrameLocator = page;
  for (const name of frames) {
    scope = scope.frameLocator(`iframe[title="${cssString(name)}"], iframe[name="${cssString(name)}"]`);
  }
  return scope;
}

function cssString(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** Where the locator is looked for: the frame the target names, inside its named container. */
export function targetScope(page: Page, target: Pick<Target, 'frame' | 'within'>): Scope {
  const frame = frameScope(page, target.frame);
  const { within } = target;
  return within ? frame.getByRole(within.role as AriaRole, { name: within.name, exact: true }) : frame;
}

export type AriaRole = Parameters<Page['getByRole']>[0];

/** What a locator is looked for in: a page, a frame, or a container element. */
export type Scope = Page | Frame | FrameLocator | Locator;
