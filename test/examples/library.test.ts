import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';

const ROOT = join(import.meta.dirname, '..', '..');
const EXAMPLE = join(ROOT, 'examples', 'library.ts');
const dir = tempDir();
afterAll(() => dir.remove());

describe('examples/library.ts (docs/library.md)', { timeout: 180_000 }, () => {
  it('type-checks against the built package under the project settings', () => {
    const config = join(dir.path, 'tsconfig.json');
    writeFileSync(
      config,
      JSON.stringify({
        extends: join(ROOT, 'tsconfig.json'),
        compilerOptions: { typeRoots: [join(ROOT, 'node_modules', '@types')] },
        include: [EXAMPLE],
      }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', config], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 170_000,
    });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('runs: the tool answers through invoke, and an MCP client lists it', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', EXAMPLE], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\d+ KB free of \d+ KB$/m);
    expect(result.stdout).toMatch(/^(.+, )?disk_free_read(, .+)?$/m);
  });
});
