import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No import cycle inside a folder, static or lazy (issue 44, "Done means"): a lazy import that
 * closes a cycle still ties two files together, and the value it fetches belongs below both.
 * Type-only imports vanish at run time and are left out.
 */
const SRC = join(import.meta.dirname, '..', '..', 'src');

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The same folder's files a file imports at run time: `import … from './x.js'` (not `import type`) and `import('./x.js')`. */
function sameFolderImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = new Set<string>();
  const statics = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.\/[^'"/]+)\.js['"]/gm;
  const lazies = /\bimport\(\s*['"](\.\/[^'"/]+)\.js['"]\s*\)/g;
  for (const pattern of [statics, lazies])
    for (const match of text.matchAll(pattern)) {
      const clause = match[0];
      // `import { type A, type B } from` brings nothing at run time either.
      const names = /\{([^}]*)\}/.exec(clause)?.[1];
      if (
        names &&
        !/\bimport\s+\w/.test(clause.replace(/import\s*\{/, '')) &&
        names
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean)
          .every((name) => name.startsWith('type '))
      )
        continue;
      found.add(resolve(dirname(file), `${match[1]}.ts`));
    }
  return [...found];
}

function cycles(): string[][] {
  const files = sources(SRC);
  const known = new Set(files);
  const edges = new Map(files.map((file) => [file, sameFolderImports(file).filter((to) => known.has(to))]));
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found.map((cycle) => cycle.map((file) => relative(SRC, file)));
}

describe('imports inside a folder', () => {
  it('form no cycle, static or lazy', () => {
    expect(cycles()).toEqual([]);
  });
});
