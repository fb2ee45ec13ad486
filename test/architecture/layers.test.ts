import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');

/**
 * What each layer may import from src/. contract <- store <- runtime <- rungs <- discover,
 * replay <- agent, serve <- cli. Fixtures are stand-ins for other people's programs, so
 * they import nothing of Lift.
 */
const ALLOWED: Record<string, string[]> = {
  contract: ['contract'],
  store: ['contract', 'store'],
  runtime: ['contract', 'store', 'runtime'],
  config: ['contract', 'config'],
  lint: ['contract', 'config', 'lint'],
  fixtures: ['fixtures'],
  rungs: ['contract', 'store', 'runtime', 'rungs'],
  apps: ['contract', 'store', 'runtime', 'rungs', 'apps'],
  // The ladder's worked example as an app: its discovery scripts, its replayed close, its declaration.
  'apps/backoffice': [
    'contract',
    'store',
    'runtime',
    'rungs',
    'replay',
    'discover',
    'ladder',
    'apps/backoffice',
  ],
  // Replay shares the capability format with the compiler, never the explorer side.
  replay: [
    'contract',
    'store',
    'runtime',
    'rungs',
    'replay',
    'discover/capability',
    'discover/capability-store',
    'discover/fingerprint',
    'discover/typed',
  ],
  discover: [
    'contract',
    'store',
    'runtime',
    'rungs',
    'discover',
    'replay',
    'agent/model-client',
    'agent/model-provider',
    'agent/model-settings',
  ],
  ladder: ['contract', 'store', 'runtime', 'rungs', 'replay', 'discover', 'ladder'],
  agent: ['contract', 'store', 'runtime', 'rungs', 'agent', 'config'],
  serve: ['contract', 'store', 'runtime', 'serve'],
};

function files(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!);
  return specifiers.filter((specifier) => specifier.startsWith('.'));
}

function layerOf(path: string): string {
  const parts = relative(SRC, path).split('/');
  return parts[0] === 'apps' && parts[1] === 'backoffice' ? 'apps/backoffice' : parts[0]!;
}

describe('layers', () => {
  it('import only from the layers below them', () => {
    const violations: string[] = [];
    for (const file of files(SRC)) {
      const layer = layerOf(file);
      const allowed = ALLOWED[layer];
      if (!allowed) continue; // cli/, builtin.ts and index.ts sit on top and may import anything
      for (const specifier of importsOf(file)) {
        const target = relative(SRC, resolve(dirname(file), specifier)).replace(/\.js$/, '');
        const ok = allowed.some((prefix) => target === prefix || target.startsWith(`${prefix}/`));
        if (!ok) violations.push(`${relative(SRC, file)} imports ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });
});
