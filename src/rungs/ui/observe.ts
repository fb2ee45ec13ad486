import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog, Frame, Page } from 'playwright-core';
import { uniqueTarget } from './element.js';
import { headerSpans } from './header-spans.js';
import type { FramePath, Target } from './locator.js';
import { linesMatching, observationPage } from './observation-pages.js';
import type { Redactor } from './redact.js';
import {
  type ElementRecord,
  type FrameFacts,
  type Rendered,
  type RenderOptions,
  renderSnapshot,
  type TableSummary,
} from './render.js';
import { showsSignIn } from './sign-in.js';
import { type AriaNode, parseAriaSnapshot } from './snapshot.js';
import { type TokenCounter, tokenCounter } from './tokens.js';

/**
 * ready          the page can be acted on
 * dialog         a JavaScript dialog (alert/confirm/prompt) is open and blocks everything else
 * file_chooser   the page opened a file chooser
 * auth_required  a sign-in form is showing (the session is missing or expired)
 * error          the page or a frame answered with HTTP 5xx
 */
export type PageState = 'ready' | 'dialog' | 'file_chooser' | 'auth_required' | 'error';

/** An actionable element as the model sees it (names and locators redacted). */
export interface ObservedElement {
  ref: string;
  role: string;
  name: string;
  frame: FramePath;
  /** The semantic target the ref resolves to, with bound values shown as placeholders. */
  target: Target;
  disabled?: true;
  password?: true;
  /** Set when the policy or the safety classifier would refuse to activate it. */
  blocked?: string;
}

export interface FrameStatus {
  path: FramePath;
  url: string;
  /** HTTP status of the frame's last document load, when known. */
  status?: number;
}

export interface Richness {
  actionable: number;
  named: number;
  unnamed: number;
  tables: number;
  frames: number;
}

export interface Observation {
  state: PageState;
  url: string;
  title: string;
  /** The bounded, redacted text for the model. */
  text: string;
  /** Size of `text` in o200k tokens. */
  tokens: number;
  /** Size of the page's full aria snapshot (what a plain snapshot tool would return), same count. */
  fullTokens: number;
  elements: ObservedElement[];
  tables: TableSummary[];
  frames: FrameStatus[];
  richness: Richness;
  /** Which page of the observation this is and how many there are (`observe` with `page`). */
  page: number;
  pages: number;
  /** True when rows or lines were left out; `fullSnapshotPath` has everything (redacted). */
  truncated: boolean;
  fullSnapshotPath?: string;
  dialog?: { type: string; message: string };
}

export interface ObserveSettings {
  redactor: Redactor;
  /** Observation cap in o200k tokens, per page. */
  maxTokens: number;
  /** Where full snapshots are written when an observation is cut. */
  outputDir: string;
  find?: { match: string; table?: string };
  /** Which page of a long observation to show, 1 for the first. */
  page?: number;
  /** HTTP status of each frame's last document load. */
  statusOf: (frame: Frame) => number | undefined;
  mark?: (element: ElementRecord) => string | undefined;
  /** Whether the page shows the sign-in (the harness's recipe decides); default: a sign-in password field shows. */
  signInShowing?: () => Promise<boolean>;
  sequence: number;
}

/** Everything an observation learned that `act` needs to resolve refs later. */
export interface ObservationIndex {
  elements: Map<string, ElementRecord>;
  frames: Map<string, FramePath>;
}

async function passwordNames(frame: Frame): Promise<Set<string>> {
  try {
    const names = await frame.locator('input[type=password]').evaluateAll((elements) =>
      elements.map((element) => {
        const labelled = element.getAttribute('aria-label');
        if (labelled) return labelled.trim();
        const label = (element as HTMLInputElement).labels?.[0];
        if (label) return (label.textContent ?? '').replace(/\s+/g, ' ').trim();
        return (element.getAttribute('placeholder') || element.getAttribute('title') || '').trim();
      }),
    );
    return new Set(names);
  } catch {
    return new Set();
  }
}

/** The page's path and query, with long query values cut: a nonce or token says nothing to a model. */
export function shortPath(url: string): string {
  try {
    const parsed = new URL(url);
    const query = [...parsed.searchParams]
      .map(([key, value]) => `${key}=${value.length > 24 ? `${value.slice(0, 8)}…` : value}`)
      .join('&');
    const path = `${parsed.pathname}${query ? `?${query}` : ''}`;
    return path.length > 120 ? `${path.slice(0, 119)}…` : path;
  } catch {
    return url;
  }
}

/**
 * The rich-text editor a frame's document is, when its body is editable (TinyMCE's and
 * CKEditor 4's iframes): the body's aria-label when it has one (CKEditor 4's), and its text.
 * TinyMCE's body has none: the frame's title names it.
 */
async function editorOf(frame: Frame): Promise<{ label?: string; text: string } | undefined> {
  const editor = await frame
    .evaluate(() => {
      const body = document.body;
      if (!body || !(body.isContentEditable || document.designMode === 'on')) return undefined;
      const label = (body.getAttribute('aria-label') ?? '').trim();
      // biome-ignore lint/performance/useDomNodeTextContent: the editor's text as a person reads it.
      const text = body.innerText.replace(/\s+/g, ' ').trim();
      if (label) return { label, text };
      // Found by the attribute that makes it editable (the `editor` locator).
      return body.hasAttribute('contenteditable') ? { text } : undefined;
    })
    .catch(() => undefined);
  return editor ?? undefined;
}

/** Takes the aria snapshot (iframes included), learns each iframe's title and password fields. */
async function capture(page: Page): Promise<{
  snapshot: string;
  facts: Map<string, FrameFacts>;
  frameOf: Map<string, Frame>;
  mainPasswordNames: Set<string>;
  title: string;
  pageWidth: number | undefined;
}> {
  const [snapshot, mainPasswordNames, title, pageWidth] = await Promise.all([
    // Boxes tell what nobody can see: no size, or parked beside the page.
    page.ariaSnapshot({ mode: 'ai', boxes: true, timeout: 5_000 }),
    passwordNames(page.mainFrame()),
    page.title().catch(() => ''),
    page
      .evaluate(() => Math.max(document.documentElement.scrollWidth, window.innerWidth))
      .catch(() => undefined),
  ]);
  const facts = new Map<string, FrameFacts>();
  const frameOf = new Map<string, Frame>();
  const iframeRefs = [...snapshot.matchAll(/- iframe[^\n]*\[ref=((?:f\d+)?e\d+)\]/g)].map(
    (match) => match[1] as string,
  );
  await Promise.all(
    iframeRefs.map(async (ref) => {
      const handle = await page
        .locator(`aria-ref=${ref}`)
        .elementHandle({ timeout: 1_000 })
        .catch(() => null);
      if (!handle) return;
      const [titleAttribute, nameAttribute, frame] = await Promise.all([
        handle.getAttribute('title'),
        handle.getAttribute('name'),
        handle.contentFrame(),
      ]);
      await handle.dispose();
      if (frame) frameOf.set(ref, frame);
      const [editor, passwords] = frame
        ? await Promise.all([editorOf(frame), passwordNames(frame)])
        : [undefined, new Set<string>()];
      facts.set(ref, {
        title: titleAttribute || nameAttribute || ref,
        url: frame?.url() ?? '',
        passwordNames: passwords,
        ...(editor ? { editor } : {}),
      });
    }),
  );
  return { snapshot, facts, frameOf, mainPasswordNames, title, pageWidth };
}

/** A target as the model may see it: every text in it redacted (names, labels, row values). */
function redactedTarget(target: Target, redactor: Redactor): Target {
  const { locator, within } = target;
  const redacted: Record<string, unknown> = { ...locator };
  for (const key of ['name', 'row', 'label', 'text'] as const)
    if (typeof redacted[key] === 'string') redacted[key] = redactor.text(redacted[key] as string);
  return {
    ...target,
    ...(within ? { within: { ...within, name: redactor.text(within.name) } } : {}),
    locator: redacted as Target['locator'],
  };
}

function observedElement(
  record: ElementRecord,
  redactor: Redactor,
  blocked: string | undefined,
): ObservedElement {
  return {
    ref: record.ref,
    role: record.role,
    name: redactor.text(record.name),
    frame: record.frame,
    target: redactedTarget(record.target, redactor),
    ...(record.disabled ? { disabled: true as const } : {}),
    ...(record.password ? { password: true as const } : {}),
    ...(blocked ? { blocked } : {}),
  };
}

/**
 * Builds a bounded observation: rows of long tables are summarised, `find` keeps the lines
 * and rows holding a text, and what is left is split into pages of at most `maxTokens`
 * (o200k) each; whenever anything is left out the whole rendering (still redacted) goes to
 * a file and `truncated` is true.
 */
export async function observePage(
  page: Page,
  settings: ObserveSettings,
): Promise<{ observation: Observation; index: ObservationIndex }> {
  // Loaded before the snapshot, never during it: building the tokenizer holds the event loop.
  const count = await tokenCounter();
  const { snapshot, facts, frameOf, mainPasswordNames, title, pageWidth } = await capture(page);
  const root = parseAriaSnapshot(snapshot);
  const mainRefPrefix = mainFramePrefix(root);
  const base: Omit<RenderOptions, 'rowLimit'> = {
    redactor: settings.redactor,
    frames: facts,
    mainPasswordNames,
    headerSpans: await headerSpans(page, root),
    ...(pageWidth ? { pageWidth } : {}),
    ...(mainRefPrefix ? { mainRefPrefix } : {}),
    ...(settings.find ? { find: settings.find } : {}),
    ...(settings.mark ? { mark: settings.mark } : {}),
  };

  const redactedUrl = (url: string): string => settings.redactor.text(url);
  const frames: FrameStatus[] = [
    { path: [], url: redactedUrl(page.url()), ...statusField(settings.statusOf(page.mainFrame())) },
  ];
  for (const [ref, frame] of frameOf) {
    frames.push({
      path: [facts.get(ref)?.title ?? ref],
      url: redactedUrl(frame.url()),
      ...statusField(settings.statusOf(frame)),
    });
  }
  // A password field is not a sign-in: the recipe's page and a sign-in field decide (sign-in.ts).
  const passwordVisible = await (settings.signInShowing ?? (() => showsSignIn(page)))();
  const failed = frames.some((frame) => (frame.status ?? 0) >= 500);
  const state: PageState = passwordVisible ? 'auth_required' : failed ? 'error' : 'ready';

  let rendered = renderSnapshot(root, { ...base, rowLimit: 5 });
  const confirmedTargets = await confirmFieldTargets(page, rendered);
  if (confirmedTargets.size > 0) {
    base.confirmedTargets = confirmedTargets;
    rendered = renderSnapshot(root, { ...base, rowLimit: 5 });
  }
  const header = headerLines(settings, { title, url: page.url(), state, frames, rendered });
  const { find } = settings;
  const body = find && !find.table ? selectLines(rendered, find.match, settings.redactor) : rendered.lines;
  const shownPage = observationPage(header, body, count, settings.maxTokens, settings.page ?? 1);
  const { text } = shownPage;
  const shownRefs = rendered.shown.filter((ref) => text.includes(`[${ref}]`));

  const truncated = rendered.omittedRows > 0 || shownPage.pages > 1 || body.length < rendered.lines.length;
  let fullSnapshotPath: string | undefined;
  if (truncated) {
    const full = renderSnapshot(root, { ...base, rowLimit: Number.MAX_SAFE_INTEGER });
    fullSnapshotPath = join(settings.outputDir, `observation-${settings.sequence}-full.txt`);
    writeFileSync(fullSnapshotPath, `${[...header, ...full.lines].join('\n')}\n`, { mode: 0o600 });
  }

  const elements = shownRefs.map((ref) => {
    const record = rendered.elements.get(ref) as ElementRecord;
    return observedElement(record, settings.redactor, settings.mark?.(record));
  });
  const frameIndex = new Map<string, FramePath>();
  for (const [ref, fact] of facts) frameIndex.set(ref, [fact.title]);
  return {
    observation: {
      state,
      url: redactedUrl(page.url()),
      title: settings.redactor.text(title),
      text,
      tokens: count(text),
      fullTokens: count(snapshot),
      elements,
      tables: rendered.tables,
      frames,
      richness: rendered.richness,
      page: shownPage.page,
      pages: shownPage.pages,
      truncated,
      ...(fullSnapshotPath ? { fullSnapshotPath } : {}),
    },
    index: { elements: rendered.elements, frames: frameIndex },
  };
}

/**
 * Observe promises that the target it prints beside a ref names that element and no other. A
 * field found by the text before it is read off the snapshot, and the page may disagree (a
 * label drawn by CSS, text the snapshot leaves out, a label whose `for` points at another
 * box): each one shown is resolved on the live page right after the snapshot. One that names
 * the element only by its position among the matches gets that position; one that does not
 * name it at all is not suggested, and the element is acted on by its ref.
 */
async function confirmFieldTargets(page: Page, rendered: Rendered): Promise<Map<string, Target | null>> {
  const confirmed = new Map<string, Target | null>();
  await Promise.all(
    rendered.shown.map(async (ref) => {
      const record = rendered.elements.get(ref);
      if (record?.target.locator.by !== 'field') return;
      const handle = await page
        .locator(`aria-ref=${record.ariaRef}`)
        .elementHandle({ timeout: 500 })
        .catch(() => null);
      // The page has changed since the snapshot: act checks the target again when it is used.
      if (!handle) return;
      try {
        const unique = await uniqueTarget(page, record.target, handle).catch(() => undefined);
        if (unique !== record.target) confirmed.set(record.ariaRef, unique ?? null);
      } finally {
        await handle.dispose().catch(() => undefined);
      }
    }),
  );
  return confirmed;
}

/** The lines every page of an observation starts with: where, in what state, what is on it, how to act. */
function headerLines(
  settings: ObserveSettings,
  page: { title: string; url: string; state: PageState; frames: FrameStatus[]; rendered: Rendered },
): string[] {
  const { redactor } = settings;
  const { richness } = page.rendered;
  const status = page.frames
    .filter((frame) => frame.status !== undefined && frame.status >= 400)
    .map(
      (frame) =>
        `${frame.path.length ? `frame "${frame.path.join('/')}"` : 'page'} answered HTTP ${frame.status}`,
    );
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const hints = ['act on [ref]s'];
  if (richness.tables > 0)
    hints.push(
      'a table cell is the target {"locator":{"by":"cell","row":"<value in the row>","column":"<header>"}}',
    );
  if (page.rendered.lines.some((line) => PAIR_LINE.test(line)))
    hints.push('the value of "Label: value" is the target {"locator":{"by":"pair","label":"Label"}}');
  hints.push('⟦…⟧ are placeholders, never text to type');
  return [
    `page ${JSON.stringify(redactor.text(page.title))} ${redactor.text(shortPath(page.url))}`,
    `state: ${page.state}${status.length ? ` (${status.join('; ')})` : ''}`,
    `richness: ${richness.actionable} actionable (${richness.named} named, ${richness.unnamed} unnamed), ${plural(richness.tables, 'table')}, ${plural(richness.frames, 'frame')}`,
    hints.join('; '),
  ];
}

/** A line that reads as "Label: value" (Status: New), not a control's or a table's line. */
const PAIR_LINE = /^\s*[\p{L}][\p{L}\p{N} ]{0,30}: \S/u;

/** With `find`: the lines holding the text (as shown or as its placeholder), or a line saying none does. */
function selectLines(rendered: Rendered, match: string, redactor: Redactor): string[] {
  const kept = linesMatching(rendered.lines, rendered.kinds, [match, redactor.text(match)]);
  const lines = kept.map((index) => rendered.lines[index] ?? '');
  const found = kept.some((index) => rendered.kinds[index] !== 'heading');
  return found ? lines : [`Nothing on the page holds ${JSON.stringify(redactor.text(match))}.`];
}

/**
 * The frame prefix Playwright gives the page's own refs (`f2` once the top document was
 * replaced by another process): the prefix of the first ref outside any iframe.
 */
function mainFramePrefix(root: AriaNode): string | undefined {
  const pending = [...root.children];
  while (pending.length > 0) {
    const node = pending.shift()!;
    if (node.ref) return /^(f\d+)e\d+$/.exec(node.ref)?.[1];
    if (node.role !== 'iframe') pending.unshift(...node.children);
  }
  return undefined;
}

function statusField(status: number | undefined): { status?: number } {
  return status === undefined ? {} : { status };
}

/** The observation while a dialog or file chooser blocks the page: no snapshot can be taken. */
export function blockedObservation(
  dialog: Dialog | undefined,
  redactor: Redactor,
  url: string,
  count: TokenCounter,
): Observation {
  const text = dialog
    ? `state: dialog\nA ${dialog.type()} dialog is open: ${JSON.stringify(redactor.text(dialog.message()))}\nNothing else can happen until it is handled: act with {"op": "dialog", "response": "accept"} or {"op": "dialog", "response": "dismiss"}.`
    : 'state: file_chooser\nThe page opened a file chooser. Dismiss it with {"op": "dialog", "response": "dismiss"}.';
  return {
    state: dialog ? 'dialog' : 'file_chooser',
    url: redactor.text(url),
    title: '',
    text,
    tokens: count(text),
    fullTokens: count(text),
    elements: [],
    tables: [],
    frames: [],
    richness: { actionable: 0, named: 0, unnamed: 0, tables: 0, frames: 0 },
    page: 1,
    pages: 1,
    truncated: false,
    ...(dialog ? { dialog: { type: dialog.type(), message: redactor.text(dialog.message()) } } : {}),
  };
}
