/** One difference between two capability revisions, by JSON path. */
export interface Difference {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A structural diff of two JSON values (steps compared by index), ignoring provenance when asked. */
export function diffValues(before: unknown, after: unknown, path = ''): Difference[] {
  if (Array.isArray(before) && Array.isArray(after)) {
    const out: Difference[] = [];
    const length = Math.max(before.length, after.length);
    for (let index = 0; index < length; index++) {
      const at = `${path}[${index}]`;
      if (index >= before.length) out.push({ path: at, kind: 'added', after: after[index] });
      else if (index >= after.length) out.push({ path: at, kind: 'removed', before: before[index] });
      else out.push(...diffValues(before[index], after[index], at));
    }
    return out;
  }
  if (isObject(before) && isObject(after)) {
    const out: Difference[] = [];
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) {
      const at = path ? `${path}.${key}` : key;
      if (!(key in before)) out.push({ path: at, kind: 'added', after: after[key] });
      else if (!(key in after)) out.push({ path: at, kind: 'removed', before: before[key] });
      else out.push(...diffValues(before[key], after[key], at));
    }
    return out;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [{ path: path || '(root)', kind: 'changed', before, after }];
}

export function formatDifference(difference: Difference): string {
  const show = (value: unknown) => JSON.stringify(value);
  switch (difference.kind) {
    case 'added':
      return `+ ${difference.path}: ${show(difference.after)}`;
    case 'removed':
      return `- ${difference.path}: ${show(difference.before)}`;
    case 'changed':
      return `~ ${difference.path}: ${show(difference.before)} -> ${show(difference.after)}`;
  }
}
