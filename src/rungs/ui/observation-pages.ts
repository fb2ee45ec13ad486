import type { LineKind } from './render-state.js';
import type { TokenCounter } from './tokens.js';

/** One page of an observation's text, within the token cap. */
export interface ObservationPage {
  text: string;
  /** Which page this is, 1 for the first. */
  page: number;
  pages: number;
  /** Indices (in the body) of the lines this page shows. */
  shown: number[];
}

/**
 * The lines `find` keeps: those that hold the text (in any line, not only a table's rows),
 * each table that matched with the rows it selected, and the heading each kept line sits under.
 */
export function linesMatching(lines: string[], kinds: LineKind[], needles: string[]): number[] {
  const wanted = needles.map((needle) => needle.toLowerCase()).filter((needle) => needle.length > 0);
  const kept = new Set<number>();
  let heading: number | undefined;
  lines.forEach((line, index) => {
    const kind = kinds[index] ?? 'text';
    if (kind === 'heading') {
      heading = index;
      return;
    }
    const matches =
      kind === 'table' || (kind === 'text' && wanted.some((needle) => line.toLowerCase().includes(needle)));
    if (!matches) return;
    if (heading !== undefined) kept.add(heading);
    kept.add(index);
  });
  return [...kept].sort((a, b) => a - b);
}

/**
 * Splits the body into pages that each fit the cap with the header, and returns the one asked
 * for (the last when asked past it). Lines are counted once each; the page's text is counted
 * again whole, and a page over the cap loses lines to the next until it fits.
 */
export function observationPage(
  header: string[],
  body: string[],
  count: TokenCounter,
  maxTokens: number,
  wanted: number,
): ObservationPage {
  const footerTokens = 24;
  const cost = body.map((line) => count(line) + 1);
  let budget = maxTokens - count(header.join('\n')) - footerTokens;
  for (let attempt = 0; attempt < 4; attempt++) {
    const pages = split(cost, Math.max(budget, 50));
    const index = Math.min(Math.max(wanted, 1), pages.length) - 1;
    const shown = pages[index] ?? [];
    const text = compose(header, body, shown, index + 1, pages.length);
    const over = count(text) - maxTokens;
    if (over <= 0 || attempt === 3) return { text, page: index + 1, pages: pages.length, shown };
    budget -= over + 10;
  }
  throw new Error('unreachable');
}

/** Consecutive runs of line indices whose costs fit the budget (at least one line each). */
function split(cost: number[], budget: number): number[][] {
  const pages: number[][] = [[]];
  let used = 0;
  cost.forEach((tokens, index) => {
    const current = pages[pages.length - 1]!;
    if (current.length > 0 && used + tokens > budget) {
      pages.push([index]);
      used = tokens;
    } else {
      current.push(index);
      used += tokens;
    }
  });
  return pages;
}

function compose(header: string[], body: string[], shown: number[], page: number, pages: number): string {
  const lines = [...header, ...shown.map((index) => body[index] ?? '')];
  if (pages > 1) {
    lines.push(
      page < pages
        ? `… page ${page} of ${pages}: observe with {"page": ${page + 1}} for the rest`
        : `(page ${page} of ${pages})`,
    );
  }
  return lines.join('\n');
}
