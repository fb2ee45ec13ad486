import type { Frame, Page } from 'playwright-core';
import type { Target } from '../rungs/ui/locator.js';
import { answerWithin } from '../rungs/ui/settle.js';

/** A short text a page shows as its own answer: a heading, an alert or status line, a notice. */
export interface PageText {
  /** The iframe titles (or names) from the top page down to the text's frame. */
  frame: string[];
  kind: 'heading' | 'message' | 'text';
  text: string;
}

/** What a page says of itself: its short texts, and the HTTP status of each frame's document. */
export interface PageAnswer {
  texts: PageText[];
  /** The highest HTTP status among the documents shown (a 404 answer, a 500 error). */
  status: number | undefined;
}

const FRAME_TIMEOUT_MS = 2_000;

/**
 * Runs in each frame: the visible headings, alert and status lines, and short blocks of text
 * (paragraphs, list items, notices) a person reads as the page's answer. Cells are data and
 * left out. Self-contained: a page function cannot call helpers defined outside it.
 */
export function readPageTexts(): Array<{ kind: 'heading' | 'message' | 'text'; text: string }> {
  const KINDS: Array<['heading' | 'message' | 'text', string]> = [
    ['heading', 'h1, h2, h3, h4, h5, h6, [role=heading]'],
    [
      'message',
      '[role=alert], [role=status], [aria-live], .error, .notice, .warning, .success, .updated, .alert, .flash',
    ],
    ['text', 'p, li, dd, label, legend, figcaption, blockquote'],
  ];
  const seen = new Set<string>();
  const texts: Array<{ kind: 'heading' | 'message' | 'text'; text: string }> = [];
  for (const [kind, selector] of KINDS) {
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      if (texts.length >= 200) return texts;
      if (element.closest('td, [aria-hidden=true], [hidden]')) continue;
      if (!element.checkVisibility({ visibilityProperty: true })) continue;
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
      const text = (element.innerText ?? '').replace(/\s+/g, ' ').trim();
      if (!text || text.length > 200 || seen.has(text)) continue;
      seen.add(text);
      texts.push({ kind, text });
    }
  }
  // A list with nothing to show often says so in one cell spanning its only row ("No users found."):
  // that cell is the list's answer, not data.
  for (const table of Array.from(document.querySelectorAll<HTMLTableElement>('table'))) {
    const rows = Array.from(table.tBodies).flatMap((body) => Array.from(body.rows));
    const cell = rows.length === 1 ? rows[0]!.cells[0] : undefined;
    if (!cell || rows[0]!.cells.length !== 1 || cell.colSpan < 2) continue;
    if (!cell.checkVisibility({ visibilityProperty: true })) continue;
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
    const text = (cell.innerText ?? '').replace(/\s+/g, ' ').trim();
    if (!text || text.length > 200 || seen.has(text) || texts.length >= 200) continue;
    seen.add(text);
    texts.push({ kind: 'message', text });
  }
  return texts;
}

/** The frame's path of iframe titles (or names) from the top page, as targets name frames. */
export async function framePath(frame: Frame): Promise<string[] | undefined> {
  const path: string[] = [];
  for (let current = frame; current.parentFrame(); current = current.parentFrame()!) {
    const element = await current.frameElement().catch(() => undefined);
    if (!element) return undefined;
    const name = await element.evaluate(
      (node) => (node as Element).getAttribute('title') || (node as Element).getAttribute('name'),
    );
    if (!name) return undefined;
    path.unshift(name);
  }
  return path;
}

/**
 * What the page shows as its answer, read from every frame a target can name (frames
 * without a title or name are skipped), with the documents' HTTP status from `statusOf`.
 */
export async function readPageAnswer(
  page: Page,
  statusOf: (frame: Frame) => number | undefined,
): Promise<PageAnswer> {
  const frames = page.frames();
  const read = await Promise.all(
    frames.map(async (frame) => {
      const [path, texts] = await Promise.all([
        framePath(frame),
        answerWithin(frame.evaluate(readPageTexts), FRAME_TIMEOUT_MS),
      ]);
      return path && texts ? texts.map((text) => ({ ...text, frame: path })) : [];
    }),
  );
  const statuses = frames.map(statusOf).filter((status): status is number => status !== undefined);
  return { texts: read.flat(), status: statuses.length > 0 ? Math.max(...statuses) : undefined };
}

/** The target that finds a page text again: a heading by its name, any other text by its words. */
export function targetOfText(text: PageText): Target {
  return text.kind === 'heading'
    ? { frame: text.frame, locator: { by: 'role', role: 'heading', name: text.text } }
    : { frame: text.frame, locator: { by: 'text', text: text.text } };
}
