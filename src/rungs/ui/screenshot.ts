import { writeFileSync } from 'node:fs';
import type { Frame, Locator, Page } from 'playwright-core';
import { PRIVATE_FILE_MODE } from '../../contract/paths.js';
import { tokenPattern } from './redact.js';

/** A bound value as a whole token, in any case, as the observation's redaction finds it. */
function wholeToken(value: string): RegExp {
  return new RegExp(tokenPattern(value), 'iu');
}

export interface MaskRules {
  /** Secrets: blacked out wherever they appear as text or in a field, even inside a word. */
  values: string[];
  /**
   * Bound input values: blacked out where a text or a field holds one as a whole token
   * (login=al masks "al", never the "Al" of "All (5)"; admin never masks "wp-admin").
   */
  inputs?: string[] | undefined;
  /** Column headers whose cells are blacked out. */
  hiddenColumns: string[];
  /** Whether a text holds a stored secret (the secret store's foundIn): such elements and fields are blacked out. */
  isSecret?: ((text: string) => boolean) | undefined;
  /** Selectors blacked out whole in every frame (replay's evidence: every table cell and field). */
  regions?: string[] | undefined;
}

/**
 * Elements whose own text, or whose field value, holds a stored secret. Only the element
 * that carries the text is masked, not its ancestors, so the rest of the page stays readable.
 */
async function secretMasks(frame: Frame, isSecret: (text: string) => boolean): Promise<Locator[]> {
  const all = frame.locator('body *');
  const texts = await all
    .evaluateAll((elements) =>
      elements.map((element) => {
        const own = Array.from(element.childNodes)
          .filter((node) => node.nodeType === Node.TEXT_NODE)
          .map((node) => node.textContent ?? '')
          .join('');
        const value = (element as HTMLInputElement).value;
        return typeof value === 'string' && value ? `${own}\n${value}` : own;
      }),
    )
    .catch(() => [] as string[]);
  return texts.flatMap((text, index) => (text.trim() && isSecret(text) ? [all.nth(index)] : []));
}

async function fieldMasks(frame: Frame, values: string[], inputs: RegExp[]): Promise<Locator[]> {
  const fields = frame.locator('input:not([type=hidden]):not([type=submit]):not([type=button]), textarea');
  const flags = await fields
    .evaluateAll(
      (elements, { wanted, tokens }) =>
        elements.map((element) => {
          const input = element as HTMLInputElement;
          if (input.type === 'password') return true;
          const value = input.value.toLowerCase();
          if (value.length === 0) return false;
          return (
            wanted.some((text) => value.includes(text.toLowerCase())) ||
            tokens.some((source) => new RegExp(source, 'iu').test(input.value))
          );
        }),
      { wanted: values, tokens: inputs.map((pattern) => pattern.source) },
    )
    .catch(() => [] as boolean[]);
  return flags.flatMap((masked, index) => (masked ? [fields.nth(index)] : []));
}

async function columnMasks(frame: Frame, columns: string[]): Promise<Locator[]> {
  if (columns.length === 0) return [];
  const wanted = columns.map((column) => column.trim().toLowerCase());
  const perTable = await frame
    .locator('table')
    .evaluateAll(
      (tables, names) =>
        tables.map((table) => {
          const header = (table as HTMLTableElement).querySelector('tr');
          const cells = header ? Array.from(header.children) : [];
          return cells
            .map((cell, index) =>
              (cell.textContent ?? '').trim().toLowerCase() &&
              names.includes((cell.textContent ?? '').trim().toLowerCase())
                ? index
                : -1,
            )
            .filter((index) => index >= 0);
        }),
      wanted,
    )
    .catch(() => [] as number[][]);
  // Positions are read from the live page for this one screenshot; they are never stored.
  return perTable.flatMap((indexes, table) =>
    indexes.map((index) =>
      frame
        .locator('table')
        .nth(table)
        .locator(`tr > td:nth-child(${index + 1})`),
    ),
  );
}

/**
 * A screenshot with bound values, secrets, password fields, hidden columns and the given
 * regions blacked out in every frame. Returns how many regions were masked.
 */
export async function maskedScreenshot(
  page: Page,
  path: string,
  rules: MaskRules,
): Promise<{ path: string; masks: number }> {
  const values = rules.values.filter((value) => value.length >= 3);
  const inputs = (rules.inputs ?? []).filter((value) => value.length > 0).map(wholeToken);
  const masks: Locator[] = [];
  for (const frame of page.frames()) {
    masks.push(...(await fieldMasks(frame, values, inputs)));
    masks.push(...(await columnMasks(frame, rules.hiddenColumns)));
    if (rules.isSecret) masks.push(...(await secretMasks(frame, rules.isSecret)));
    if (rules.regions?.length) masks.push(frame.locator(rules.regions.join(', ')));
    for (const value of values) masks.push(frame.getByText(value));
    for (const pattern of inputs) masks.push(frame.getByText(pattern));
  }
  const image = await page.screenshot({
    mask: masks,
    maskColor: '#000000',
    fullPage: false,
    timeout: 10_000,
  });
  writeFileSync(path, image, { mode: PRIVATE_FILE_MODE });
  return { path, masks: masks.length };
}
