import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEBIAN_PYTHON } from '../../../../src/rungs/desktop/bridge.js';

describe("the bridge's settle wait", () => {
  it('decides on scripted programs as it must (wait_cases.py: late reports, second changes, silent nodes, idle)', () => {
    const run = spawnSync(DEBIAN_PYTHON, ['-B', join(import.meta.dirname, 'wait_cases.py')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    // unittest reports on stderr; on a failure the assertion shows the whole report.
    expect(run.stderr).toMatch(/\nOK\n?$/);
    expect(run.status).toBe(0);
  });
});
