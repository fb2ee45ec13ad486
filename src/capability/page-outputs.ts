import type { Page } from 'playwright-core';
import { capturingPattern } from '../contract/pattern.js';
import type { OutputSource } from './capability.js';
import { readPageAnswer } from './page-texts.js';

/** What one output source reads on the resulting page, or why it reads nothing. */
export type SourceReading = { raw: string } | { missing: string };

function fromAddress(address: string, param: string | undefined, what: string): SourceReading {
  if (param === undefined) return { raw: address };
  const value = new URL(address).searchParams.get(param);
  return value === null ? { missing: `${what} carries no ${param}` } : { raw: value };
}

/** The hrefs (absolute) of the links named exactly `name`, in every frame of the page. */
async function linkHrefs(page: Page, name: string): Promise<string[]> {
  const found = await Promise.all(
    page.frames().map((frame) =>
      frame
        .getByRole('link', { name, exact: true })
        .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href))
        .catch(() => [] as string[]),
    ),
  );
  return [...new Set(found.flat().filter(Boolean))];
}

/**
 * Reads one output source on the page as it is now: the discovery side reads it once to check
 * the source holds, replay reads it after the checkpoint. Messages are the page's own status
 * and flash lines as the rest of Lift reads them (page-texts.ts), never other text.
 */
export async function readSource(page: Page, source: OutputSource): Promise<SourceReading> {
  if ('url' in source) return fromAddress(page.url(), source.url.param, "the resulting page's URL");
  if ('link' in source) {
    const hrefs = await linkHrefs(page, source.link.name);
    if (hrefs.length === 0) return { missing: `the page has no link named '${source.link.name}'` };
    // Two links of that name to different places: which record was made is not known.
    if (hrefs.length > 1)
      return { missing: `the page has ${hrefs.length} links named '${source.link.name}' that differ` };
    return fromAddress(hrefs[0]!, source.link.param, `the link '${source.link.name}'`);
  }
  const pattern = capturingPattern(source.message.pattern, { what: 'message pattern' });
  const { texts } = await readPageAnswer(page, () => undefined);
  const captured = [
    ...new Set(
      texts
        .flatMap((text) => (text.kind === 'message' ? [pattern.capture(text.text)] : []))
        .filter((value): value is string => value !== undefined),
    ),
  ];
  if (captured.length === 0) return { missing: `no status or flash message matches ${pattern.source}` };
  if (captured.length > 1)
    return { missing: `several messages match ${pattern.source} with different values` };
  return { raw: captured[0]! };
}

/** How a source is named in an answer: `url`, `message` or `link`. */
export function sourceKind(source: OutputSource): 'url' | 'message' | 'link' {
  return 'url' in source ? 'url' : 'link' in source ? 'link' : 'message';
}
