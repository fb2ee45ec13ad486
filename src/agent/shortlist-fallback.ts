import type { AnyTool } from '../contract/define-tool.js';

/** Words too common in requests and descriptions to say anything about a tool. */
const COMMON = new Set(
  'a an and are as at be by can do does for from has have how i in is it its me my not of on one or please show that the their them then this to up was what when which who with you your'.split(
    ' ',
  ),
);

function words(text: string): Set<string> {
  const found = new Set<string>();
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word.length < 3 || COMMON.has(word)) continue;
    // A crude stem, so that "items" meets "item" and "restarts" meets "restart".
    found.add(word.replace(/(?:ies|es|s)$/, ''));
  }
  return found;
}

/**
 * The groups whose tools share the most words with a request (names and descriptions),
 * best first: what to offer when no signal scored, so that no request goes out without
 * tools while tools are registered. Every group, in registration order, when no word matches.
 */
export function bestGroupsByWords(
  request: string,
  tools: readonly AnyTool[],
  groupOf: (tool: AnyTool) => string,
  limit: number,
): string[] {
  const asked = words(request);
  const overlap = new Map<string, number>();
  for (const tool of tools) {
    const group = groupOf(tool);
    const described = words(`${tool.name.replaceAll('_', ' ')} ${tool.description}`);
    const shared = [...asked].filter((word) => described.has(word)).length;
    overlap.set(group, Math.max(overlap.get(group) ?? 0, shared));
  }
  const ranked = [...overlap].filter(([, shared]) => shared > 0).sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return [...overlap.keys()];
  return ranked.slice(0, limit).map(([group]) => group);
}
