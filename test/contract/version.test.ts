import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIFT_VERSION } from '../../src/contract/version.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

function files(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('the version', () => {
  it('is read from package.json', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(LIFT_VERSION).toBe(pkg.version);
  });

  it('is written nowhere else in the sources, tests or benchmarks', () => {
    const literal = new RegExp(`['"\`]${LIFT_VERSION.replaceAll('.', '\\.')}['"\`]`);
    const found = ['src', 'test', 'bench']
      .flatMap((folder) => files(join(ROOT, folder)))
      .filter((file) => literal.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(found).toEqual([]);
  });
});
