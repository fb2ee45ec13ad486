import type { Page } from 'playwright-core';
import { answerWithin } from '../rungs/ui/settle.js';

const FRAME_TIMEOUT_MS = 1_000;

/**
 * Runs in each frame: the texts of the application's error messages a person sees (alerts,
 * error boxes and notices, a field marked invalid with its message). Self-contained: a page
 * function cannot call helpers defined outside it.
 */
export function readErrorMessages(): string[] {
  const selector = [
    '[role=alert]',
    '.error',
    '.errors',
    '.errorbox',
    '.error-message',
    '.alert-danger',
    '.alert-error',
    '.notice-error',
    '.message.error',
    '#login_error',
    '.mw-message-box-error',
    '.cdx-message--error',
    '.invalid-feedback',
    '.field-error',
    '.flash-error',
    '[aria-invalid=true] ~ .help',
  ].join(', ');
  const texts: string[] = [];
  for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
    if (!element.checkVisibility({ visibilityProperty: true })) continue;
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
    const text = (element.innerText ?? '').replace(/\s+/g, ' ').trim();
    if (text && !texts.includes(text)) texts.push(text.slice(0, 300));
    if (texts.length >= 20) break;
  }
  return texts;
}

/** Every frame's error messages now (a frame too busy to answer adds none). */
export async function errorMessages(page: Page): Promise<string[]> {
  const read = await Promise.all(
    page.frames().map((frame) => answerWithin(frame.evaluate(readErrorMessages), FRAME_TIMEOUT_MS)),
  );
  return [...new Set(read.flatMap((texts) => texts ?? []))];
}

/**
 * The application's refusal of a write: an error message that was not on the page before the
 * step that sent it, while that step's form is still shown. A write the application took leaves
 * its form (or shows what it made); one it refused says why beside the form.
 */
export function refusalAmong(before: readonly string[], after: readonly string[]): string | undefined {
  return after.find((text) => !before.includes(text));
}
