import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { bindPlaceholders, type Capability } from '../capability/capability.js';
import { LiftError } from '../contract/errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../contract/paths.js';
import type { Target } from '../rungs/ui/locator.js';
import { describeTarget, offered } from './targets.js';

/**
 * A screenshot with every data region blacked out: table cells, form fields, and any
 * text equal to a bound input. Returns its path, or undefined when the page cannot be shot.
 */
export async function maskedScreenshot(
  page: Page,
  capability: Capability,
  inputs: Record<string, unknown>,
  folder: string,
  label: string,
): Promise<string | undefined> {
  const frames = new Set<string>();
  for (const step of capability.steps) if ('target' in step) frames.add(JSON.stringify(step.target.frame));
  const masks: Locator[] = [page.locator('td, input, textarea, select')];
  for (const frame of frames) {
    const path = JSON.parse(frame) as string[];
    if (path.length === 0) continue;
    let scope = page.frameLocator(`iframe[title="${path[0]}"], iframe[name="${path[0]}"]`);
    for (const name of path.slice(1))
      scope = scope.frameLocator(`iframe[title="${name}"], iframe[name="${name}"]`);
    masks.push(scope.locator('td, input, textarea, select'));
    for (const value of Object.values(inputs)) masks.push(scope.getByText(String(value)));
  }
  for (const value of Object.values(inputs)) masks.push(page.getByText(String(value)));
  try {
    mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
    const file = join(folder, `${label}-${Date.now()}.png`);
    const image = await page.screenshot({ mask: masks, maskColor: '#000000', timeout: 5_000 });
    writeFileSync(file, image, { mode: PRIVATE_FILE_MODE });
    return file;
  } catch {
    return undefined;
  }
}

/**
 * SURFACE_CHANGED with what the screen offers instead of the missing target, and a masked
 * screenshot: the screen no longer offers what the capability expects.
 */
export async function surfaceChanged(
  page: Page,
  evidence: { capability: Capability; inputs: Record<string, unknown>; folder: string },
  message: string,
  target: Target | undefined,
  outcome: 'unknown' | 'not_started',
): Promise<LiftError> {
  const { capability, inputs, folder } = evidence;
  const bound = target ? bindPlaceholders(target, inputs) : undefined;
  return new LiftError('SURFACE_CHANGED', message, {
    hint: 'The screen no longer offers what the capability expects. Rediscover it (lift discover); do not retry blindly.',
    outcome,
    details: {
      ...(bound ? { expected: describeTarget(bound), offered: await offered(page, bound) } : {}),
      screenshot: await maskedScreenshot(page, capability, inputs, folder, 'surface-changed'),
    },
  });
}
