import type { Runtime } from '../runtime/runtime.js';

/** Failures that say a door no longer fits: repeated, they propose the next rung below. */
export const STEP_DOWN_CODES = ['SURFACE_CHANGED', 'PROMPT_UNEXPECTED'] as const;

export type FailureCounts = Record<string, Record<string, number>>;

/**
 * Counts failed calls by tool and error code from the run log (the `call-end` event of every
 * call, nested calls included), optionally only since a time.
 */
export async function failureCounts(
  runtime: Runtime,
  tools: string[],
  since?: string,
): Promise<FailureCounts> {
  const counts: FailureCounts = Object.fromEntries(tools.map((tool) => [tool, {}]));
  const wanted = new Set(tools);
  for (const id of await runtime.store.runs.ids(since ?? '')) {
    for (const event of await runtime.store.runs.events(id)) {
      if (event.type !== 'call-end' || event.ok !== false || typeof event.tool !== 'string') continue;
      if (!wanted.has(event.tool) || typeof event.code !== 'string') continue;
      // A held call is not ok, but its door did not fail: it waits for a person.
      if (event.code === 'APPROVAL_PENDING') continue;
      const byCode = counts[event.tool]!;
      byCode[event.code] = (byCode[event.code] ?? 0) + 1;
    }
  }
  return counts;
}
