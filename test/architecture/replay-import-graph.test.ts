import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');
const FORBIDDEN_FOLDERS = ['agent/', 'model/', 'discover/', 'serve/'];
const FORBIDDEN_PACKAGES = /^(ai$|@ai-sdk\/|openai$|@anthropic-ai\/|@google\/genai|ollama)/;

function files(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!);
}

/** Every file and package src/replay/** reaches, following relative imports transitively. */
function reach(): { files: Set<string>; packages: Set<string>; paths: Map<string, string> } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const paths = new Map<string, string>();
  const queue = files(join(SRC, 'replay'));
  for (const file of queue) paths.set(file, relative(SRC, file));
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of specifiers(file)) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
      if (!paths.has(target)) paths.set(target, `${paths.get(file)} -> ${relative(SRC, target)}`);
      queue.push(target);
    }
  }
  return { files: seen, packages, paths };
}

describe('replay has no path to a model', () => {
  const graph = reach();

  it('never reaches the agent, the model client, discovery (its explorers) or the server', () => {
    const bad = [...graph.files]
      .map((file) => relative(SRC, file))
      .filter((file) => FORBIDDEN_FOLDERS.some((folder) => file.startsWith(folder)))
      .map((file) => graph.paths.get(join(SRC, file)));
    expect(bad).toEqual([]);
  });

  it('never imports a model SDK', () => {
    expect([...graph.packages].filter((name) => FORBIDDEN_PACKAGES.test(name))).toEqual([]);
  });

  it('walks a real graph (the engine and the locator are in it)', () => {
    const reached = [...graph.files].map((file) => relative(SRC, file));
    expect(reached).toContain('replay/engine.ts');
    expect(reached).toContain('rungs/ui/locator.ts');
    expect(graph.packages.has('playwright-core')).toBe(true);
  });

  it('covers the desktop skills: their replay and the AT-SPI bridge are in the graph', () => {
    const reached = [...graph.files].map((file) => relative(SRC, file));
    expect(reached).toContain('replay/desktop-skills.ts');
    expect(reached).toContain('rungs/desktop/skill/replay.ts');
    expect(reached).toContain('rungs/desktop/bridge.ts');
  });
});
