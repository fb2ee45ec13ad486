import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog, Frame, Page } from 'playwright-core';
import { headerSpans } from './header-spans.js';
import type { FramePath, Target } from './locator.js';
import type { Redactor } from './redact.js';
import {
  type ElementRecord,
  type FrameFacts,
  type Rendered,
  renderSnapshot,
  type TableSummary,
} from './render.js';
import { showsSignIn } from './sign-in.js';
import { parseAriaSnapshot } from './snapshot.js';

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
  /** Size of `text` counted as characters / 4. */
  tokens: number;
  /** Size of the page's full aria snapshot (what a plain snapshot tool would return), same count. */
  fullTokens: number;
  elements: ObservedElement[];
  tables: TableSummary[];
  frames: FrameStatus[];
  richness: Richness;
  /** True when rows or lines were left out; `fullSnapshotPath` has everything (redacted). */
  truncated: boolean;
  fullSnapshotPath?: string;
  dialog?: { type: string; message: string };
}

export interface ObserveSettings {
  redactor: Redactor;
  /** Observation cap in tokens (characters / 4). */
  maxTokens: number;
  /** Where full snapshots are written when an observation is cut. */
  outputDir: string;
  find?: { match: string; table?: string };
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

export function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}

function pathAndQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/** Takes the aria snapshot (iframes included), learns each iframe's title and password fields. */
async function capture(page: Page): Promise<{
  snapshot: string;
  facts: Map<string, FrameFacts>;
  frameOf: Map<string, Frame>;
  mainPasswordNames: Set<string>;
  title: string;
}> {
  const [snapshot, mainPasswordNames, title] = await Promise.all([
    page.ariaSnapshot({ mode: 'ai', timeout: 5_000 }),
    passwordNames(page.mainFrame()),
    page.title().catch(() => ''),
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
      facts.set(ref, {
        title: titleAttribute || nameAttribute || ref,
        url: frame?.url() ?? '',
        passwordNames: frame ? await passwordNames(frame) : new Set(),
      });
    }),
  );
  return { snapshot, facts, frameOf, mainPasswordNames, title };
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
 * Builds a bounded observation: rows of long tables are summarised first, then lines are
 * cut, until the text fits `maxTokens`; whenever anything is left out the whole rendering
 * (still redacted) goes to a file and `truncated` is true.
 */
export async function observePage(
  page: Page,
  settings: ObserveSettings,
): Promise<{ observation: Observation; index: ObservationIndex }> {
  const { snapshot, facts, frameOf, mainPasswordNames, title } = await capture(page);
  const root = parseAriaSnapshot(snapshot);
  const base = {
    redactor: settings.redactor,
    frames: facts,
    mainPasswordNames,
    headerSpans: await headerSpans(page, root),
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

  const maxChars = settings.maxTokens * 4;
  const compose = (rendered: Rendered, cutLines = 0): string => {
    const { richness } = rendered;
    const status = frames
      .filter((frame) => frame.status !== undefined && frame.status >= 400)
      .map(
        (frame) =>
          `${frame.path.length ? `frame "${frame.path.join('/')}"` : 'page'} answered HTTP ${frame.status}`,
      );
    const header = [
      `page ${JSON.stringify(settings.redactor.text(title))} ${settings.redactor.text(pathAndQuery(page.url()))}`,
      `state: ${state}${status.length ? ` (${status.join('; ')})` : ''}`,
      `richness: ${richness.actionable} actionable (${richness.named} named, ${richness.unnamed} unnamed), ${richness.tables} table${richness.tables === 1 ? '' : 's'}, ${richness.frames} frame${richness.frames === 1 ? '' : 's'}`,
      'act on [ref]s; a table cell is {"by":"cell","row":"<value in the row>","column":"<header>"}; ⟦…⟧ are placeholders, never text to type',
    ];
    const body = cutLines > 0 ? rendered.lines.slice(0, rendered.lines.length - cutLines) : rendered.lines;
    const tail = cutLines > 0 ? [`… ${cutLines} more lines left out (truncated)`] : [];
    return [...header, ...body, ...tail].join('\n');
  };

  let rendered = renderSnapshot(root, { ...base, rowLimit: 5 });
  let text = compose(rendered);
  if (text.length > maxChars) {
    rendered = renderSnapshot(root, { ...base, rowLimit: 2 });
    text = compose(rendered);
  }
  let cut = 0;
  while (text.length > maxChars && cut < rendered.lines.length) {
    const overflow = text.length - maxChars;
    let drop = 0;
    let freed = 0;
    for (let index = rendered.lines.length - cut - 1; index >= 0 && freed < overflow + 60; index--) {
      freed += (rendered.lines[index]?.length ?? 0) + 1;
      drop++;
    }
    cut += Math.max(drop, 1);
    text = compose(rendered, cut);
  }
  const shownRefs = new Set(cut > 0 ? [] : rendered.shown);
  if (cut > 0) {
    const visibleText = text;
    for (const ref of rendered.shown) if (visibleText.includes(`[${ref}]`)) shownRefs.add(ref);
  }

  const truncated = rendered.omittedRows > 0 || cut > 0;
  let fullSnapshotPath: string | undefined;
  if (truncated) {
    const full = renderSnapshot(root, { ...base, rowLimit: Number.MAX_SAFE_INTEGER });
    fullSnapshotPath = join(settings.outputDir, `observation-${settings.sequence}-full.txt`);
    writeFileSync(fullSnapshotPath, `${compose(full)}\n`, { mode: 0o600 });
  }

  const elements = [...shownRefs].map((ref) => {
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
      tokens: tokensOf(text),
      fullTokens: tokensOf(snapshot),
      elements,
      tables: rendered.tables,
      frames,
      richness: rendered.richness,
      truncated,
      ...(fullSnapshotPath ? { fullSnapshotPath } : {}),
    },
    index: { elements: rendered.elements, frames: frameIndex },
  };
}

function statusField(status: number | undefined): { status?: number } {
  return status === undefined ? {} : { status };
}

/** The observation while a dialog or file chooser blocks the page: no snapshot can be taken. */
export function blockedObservation(dialog: Dialog | undefined, redactor: Redactor, url: string): Observation {
  const text = dialog
    ? `state: dialog\nA ${dialog.type()} dialog is open: ${JSON.stringify(redactor.text(dialog.message()))}\nNothing else can happen until it is handled: act with {"op": "dialog", "response": "accept"} or {"op": "dialog", "response": "dismiss"}.`
    : 'state: file_chooser\nThe page opened a file chooser. Dismiss it with {"op": "dialog", "response": "dismiss"}.';
  return {
    state: dialog ? 'dialog' : 'file_chooser',
    url: redactor.text(url),
    title: '',
    text,
    tokens: tokensOf(text),
    fullTokens: tokensOf(text),
    elements: [],
    tables: [],
    frames: [],
    richness: { actionable: 0, named: 0, unnamed: 0, tables: 0, frames: 0 },
    truncated: false,
    ...(dialog ? { dialog: { type: dialog.type(), message: redactor.text(dialog.message()) } } : {}),
  };
}
