/**
 * Processes that open one new home at the same moment (two `lift approve` of one held call
 * on a new host, workers starting together) all open it: creating its folders and turning
 * its database to WAL are races that one of them wins and the others wait out. Before, a
 * loser failed with EEXIST or "database is locked" (CI, test/queue/workers.test.ts).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/migrations.js';
import { tempDir } from '../support/temp.js';

const OPENER = join(import.meta.dirname, '..', 'fixtures', 'store', 'open-home.ts');

function opener(home: string, go: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', OPENER, home, go], { stdio: 'pipe' });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('a new home opened by several processes at once', () => {
  it('opens in every one of them, at the newest schema', async () => {
    const dir = tempDir('lift-open-race-');
    try {
      for (let round = 0; round < 3; round++) {
        // Two levels that do not exist yet: every process tries to create both.
        const home = join(dir.path, `round-${round}`, 'home');
        const go = join(dir.path, `go-${round}`);
        const openers = Array.from({ length: 6 }, () => opener(home, go));
        // Every process is started and polling before any of them may open.
        await sleep(2_500);
        writeFileSync(go, '');
        for (const { code, out } of await Promise.all(openers)) {
          expect(out, out).toBe(String(SCHEMA_VERSION));
          expect(code).toBe(0);
        }
      }
    } finally {
      dir.remove();
    }
  }, 120_000);
});
