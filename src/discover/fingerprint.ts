import type { Page } from 'playwright-core';
import { sha256 } from '../runtime/canonical.js';

/** Roles whose name says what a screen is for; data (cells, rows, text) is left out. */
const SKELETON_ROLES = new Set([
  'heading',
  'button',
  'textbox',
  'searchbox',
  'combobox',
  'checkbox',
  'radio',
  'tab',
  'navigation',
  'form',
  'iframe',
  'dialog',
]);

const LINE = /^\s*- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?/;

/**
 * The accessibility skeleton of a page: the sorted, de-duplicated role + name pairs of its
 * structural and actionable elements, across iframes. Order-free, so a layout that moves
 * things around (or reverses tables) has the same skeleton; a renamed button does not.
 */
export function skeletonOf(ariaSnapshot: string): string[] {
  const entries = new Set<string>();
  for (const line of ariaSnapshot.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const role = match[1]!;
    if (!SKELETON_ROLES.has(role)) continue;
    entries.add(match[2] === undefined ? role : `${role} "${match[2]}"`);
  }
  return [...entries].sort();
}

export async function pageSkeleton(page: Page): Promise<string[]> {
  return skeletonOf(await page.ariaSnapshot({ mode: 'ai', timeout: 5_000 }));
}

export function fingerprintOf(skeleton: string[]): string {
  return sha256(skeleton.join('\n'));
}

export async function pageFingerprint(page: Page): Promise<{ fingerprint: string; skeleton: string[] }> {
  const skeleton = await pageSkeleton(page);
  return { fingerprint: fingerprintOf(skeleton), skeleton };
}
