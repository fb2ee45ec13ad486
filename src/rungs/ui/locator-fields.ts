import type { Locator } from 'playwright-core';
import type { Scope } from './target-scope.js';

/** A string as an XPath literal, whatever quotes it holds. */
export function xpathString(text: string): string {
  if (!text.includes("'")) return `'${text}'`;
  if (!text.includes('"')) return `"${text}"`;
  return `concat('${text.split("'").join(`', "'", '`)}')`;
}

/** "Status", "Status:" and "Status :" name the same label. */
export function bareLabel(label: string): string {
  return label.replace(/\s*:\s*$/, '').trim();
}

/** An XPath predicate: the node's text is the label, with or without its colon. */
function isLabel(label: string): string {
  const bare = xpathString(bareLabel(label));
  return `normalize-space(.)=${bare} or normalize-space(.)=concat(${bare}, ':') or normalize-space(.)=concat(${bare}, ' :')`;
}

/** Elements a person types into or chooses in. */
const FIELD =
  "(self::input[not(@type='hidden' or @type='submit' or @type='button' or @type='reset' or @type='image')]" +
  " or self::textarea or self::select or @contenteditable='true' or @contenteditable=''" +
  " or @role='textbox' or @role='combobox' or @role='searchbox' or @role='spinbutton')";

/** Text that is no label: scripts, styles, and the options and values inside other fields. */
/**
 * A field a person can reach with Tab: a widget's own box parked out of the tab order (a
 * recipient box's textarea that hands its focus to the visible input after it) stands between
 * no text and the field a person sees after it.
 */
const TABBED_FIELD = `${FIELD} and not(@tabindex='-1' or @aria-hidden='true' or @hidden)`;

const NOT_LABEL =
  'not(ancestor::script or ancestor::style or ancestor::noscript or ancestor::template' +
  ' or ancestor::select or ancestor::textarea or ancestor::option)';

type AriaRole = Parameters<Locator['getByRole']>[0];

/** The first way of finding that finds anything: a label is more precise than the text before a field. */
async function firstFound(candidates: Locator[]): Promise<Locator> {
  for (const candidate of candidates) if ((await candidate.count().catch(() => 0)) > 0) return candidate;
  return candidates[0]!;
}

/**
 * Which of the locator's matches a person perceives, judged as observe judges what it shows
 * (render-state.ts: isHidden, offPage): outside any aria-hidden subtree, larger than a pixel,
 * and, in the top page, not wholly beside it. Empty when nothing matches.
 */
function perceived(candidate: Locator): Promise<boolean[]> {
  return candidate
    .evaluateAll((elements) =>
      // No named helpers in here: the bundler would wrap them in a __name the page lacks.
      elements.map((element) => {
        if (element.closest('[aria-hidden="true"]')) return false;
        const box = element.getBoundingClientRect();
        if (box.width <= 1 && box.height <= 1) return false;
        const view = element.ownerDocument.defaultView;
        if (!view || view !== view.top) return true;
        const width = Math.max(element.ownerDocument.documentElement.scrollWidth, view.innerWidth);
        return box.x < width && box.x + box.width > 0;
      }),
    )
    .catch(() => []);
}

/**
 * The first way of finding a field that finds one a person perceives, narrowed to the matches
 * perceived. A token widget's label names the form's own box, parked off the page, while the
 * person types into an input beside it (Roundcube's recipients, Select2, Tom Select): the
 * label must not win over the field after it. Matches nobody perceives are still returned
 * when no way finds another, as before: the one box a page has is the one to fill.
 */
async function firstPerceived(candidates: Locator[]): Promise<Locator> {
  let hiddenOnly: Locator | undefined;
  for (const candidate of candidates) {
    const seen = await perceived(candidate);
    if (seen.length === 0) continue;
    if (seen.every(Boolean)) return candidate;
    // By position among this look's matches: resolved afresh on every use of the target.
    const kept = seen.flatMap((shown, index) => (shown ? [candidate.nth(index)] : []));
    if (kept.length > 0) return kept.reduce((all, one) => all.or(one));
    hiddenOnly ??= candidate;
  }
  return hiddenOnly ?? candidates[0]!;
}

/**
 * A field by the text a person reads for it: its label (or aria-label), else the text right
 * before it ("Enter:" before a box with no label), else its form row's header cell (a
 * column's name in phpMyAdmin's Insert form). `role` picks one kind when the row holds several.
 */
export function fieldByLabel(scope: Scope, label: string, role?: string): Promise<Locator> {
  const bare = bareLabel(label);
  const byRole = (found: Locator) => (role ? found.and(scope.getByRole(role as AriaRole)) : found);
  return firstPerceived([
    byRole(scope.getByLabel(bare, { exact: true }).or(scope.getByLabel(`${bare}:`, { exact: true }))),
    byRole(
      scope
        .locator(
          // Right before: no other field between the text and this one (Adminer's "Permanent
          // login" box after its Database row is not the field after "Database").
          `xpath=//*[${FIELD}][preceding::text()[normalize-space(.)!=''][${NOT_LABEL}][1][${isLabel(label)}]]` +
            `[count(preceding::*[${TABBED_FIELD}]) = count(preceding::text()[normalize-space(.)!=''][${NOT_LABEL}][1]/preceding::*[${TABBED_FIELD}])]`,
        )
        .filter({ visible: true }),
    ),
    byRole(
      scope.locator(`xpath=//*[${FIELD}][ancestor::tr[1]/*[1][${isLabel(label)}]]`).filter({ visible: true }),
    ),
  ]);
}

/**
 * The value of a labelled pair: a definition list's term and its definition, a row's header
 * cell and the cell after it, a label element and the element after it, or the innermost
 * element whose text is "Label: value" (read without its label: valueOfPair).
 */
export function pairValue(scope: Scope, label: string): Promise<Locator> {
  const inline = xpathString(`${bareLabel(label)}:`);
  const longer = `string-length(normalize-space(.)) > string-length(${inline})`;
  const startsInline = `starts-with(normalize-space(.), ${inline}) and ${longer}`;
  return firstFound([
    scope.locator(`xpath=//dt[${isLabel(label)}]/following-sibling::dd[1]`),
    scope.locator(`xpath=//tr/*[1][self::th or self::td][${isLabel(label)}]/following-sibling::*[1]`),
    scope.locator(
      `xpath=//*[not(self::dt or self::th)][preceding-sibling::*[1][${isLabel(label)}]][normalize-space(.)!='']`,
    ),
    scope.locator(`xpath=//*[not(self::script or self::style)][${startsInline}][not(.//*[${startsInline}])]`),
  ]);
}

/** The value of "Label: value" read from its element: what follows the label, when the element holds both. */
export function valueOfPair(text: string, label: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const prefix = new RegExp(`^${bareLabel(label).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:\\s*`);
  return flat.replace(prefix, '');
}
