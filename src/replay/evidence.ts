import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { bindPlaceholders } from '../capability/capability.js';
import { LiftError } from '../contract/errors.js';
import { PRIVATE_DIR_MODE } from '../contract/paths.js';
import type { PageHarness } from '../rungs/ui/harness.js';
import type { Target } from '../rungs/ui/locator.js';
import { describeTarget, offered } from './targets.js';

/** What a replay's evidence never shows, besides what the harness masks: every table cell and field. */
const DATA_REGIONS = ['td', 'input', 'textarea', 'select'];

/**
 * A screenshot for the evidence of a failure: the harness masks bound inputs, secrets,
 * password fields and hidden columns, and every data region is blacked out too. The harness
 * records it as a ui-screenshot-taken event of the run (the console shows it there). Returns
 * its path, or undefined when the page cannot be shot (a dialog, a closed page).
 */
export async function evidenceScreenshot(
  harness: PageHarness,
  folder: string,
  label: string,
): Promise<string | undefined> {
  try {
    mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
    const shot = await harness.screenshot(join(folder, `${label}-${Date.now()}.png`), {
      regions: DATA_REGIONS,
    });
    return shot.path;
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
  evidence: { inputs: Record<string, unknown>; screenshot: (label: string) => Promise<string | undefined> },
  message: string,
  target: Target | undefined,
  outcome: 'unknown' | 'not_started',
  structural = true,
): Promise<LiftError> {
  const { inputs } = evidence;
  const bound = target ? bindPlaceholders(target, inputs) : undefined;
  return new LiftError('SURFACE_CHANGED', message, {
    hint: structural
      ? 'The screen no longer offers what the capability expects. Rediscover it (lift discover); do not retry blindly.'
      : 'The page the inputs led to is not the one discovery saw: the record they name may not exist, or the screen changed. Check the inputs (a lookup of the record through another tool settles it) before you rediscover.',
    outcome,
    details: {
      ...(bound ? { expected: describeTarget(bound), offered: await offered(page, bound) } : {}),
      // Only a structural change counts toward switching the capability off (run-tool.ts).
      structural,
      screenshot: await evidence.screenshot('surface-changed'),
    },
  });
}
