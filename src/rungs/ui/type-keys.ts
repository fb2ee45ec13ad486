import type { Locator } from 'playwright-core';

/**
 * Types text into a field key by key, as a person at a keyboard does: a keydown, keypress,
 * input and keyup for each character, which autocompletes and editors listen for. A line
 * break is the Enter key (a new line in a textarea or an editor). By default the field is
 * emptied first, so it ends up holding the text alone, as after a fill, and a replay typing
 * it again does not append. With `clear: false` the text goes in at the caret, where a caret
 * key (Control+End) put it: a field that has the focus is typed into as it is, since
 * focusing it again would put an input's caret back at its start.
 */
export async function typeKeys(
  locator: Locator,
  text: string,
  timeout: number,
  options: { clear?: boolean } = {},
): Promise<void> {
  if (options.clear === false) {
    const focused = await locator.evaluate(
      (element) => element.ownerDocument.activeElement === element && element.ownerDocument.hasFocus(),
      undefined,
      { timeout },
    );
    if (focused) return locator.page().keyboard.type(text);
  } else {
    await locator.fill('', { timeout });
  }
  await locator.pressSequentially(text, { timeout });
}
