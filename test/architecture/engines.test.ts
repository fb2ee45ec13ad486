import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
// semver ships no types; the one function used is typed here.
const { satisfies } = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string, options?: { includePrerelease: boolean }): boolean;
};

interface Locked {
  version?: string;
  engines?: { node?: string } | string[];
}

it('locks no package that declares it cannot run on Node 20, so a clean install prints no engine warning', () => {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, Locked>;
  };
  const declared = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    engines: { node: string };
  };
  expect(satisfies('20.0.0', declared.engines.node)).toBe(true);
  const refusing = Object.entries(lock.packages)
    .filter(([, locked]) => {
      const range = Array.isArray(locked.engines) ? undefined : locked.engines?.node;
      return range !== undefined && !satisfies(process.versions.node, range, { includePrerelease: true });
    })
    .map(
      ([path, locked]) => `${path}@${locked.version} wants node ${(locked.engines as { node: string }).node}`,
    );
  expect(refusing).toEqual([]);
});
