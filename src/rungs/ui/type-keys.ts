import type { Locator } from 'playwright-core';

/**
 * Types text into a field key by key, as a person at a keyboard does: a keydown, keypress,
 * input and keyup for each character, which autocompletes and editors listen for. The field
 * is emptied first, so it ends up holding the text alone, as after a fill, and a replay
 * typing it again does not append.
 */
export async function typeKeys(locator: Locator, text: string, timeout: number): Promise<void> {
  await locator.fill('', { timeout });
  await locator.pressSequentially(text, { timeout });
}
