import { execFile } from 'node:child_process';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../support/temp.js';

const dir = tempDir('lift-big-export-');
afterAll(() => dir.remove());

/** Writes an hours export of at least `bytes`; every 9,000th row is employee E0042. Returns the row count. */
function writeExport(path: string, bytes: number): number {
  const fd = openSync(path, 'w');
  writeSync(fd, 'employee_id,work_date,hours,batch\n');
  let rows = 0;
  for (let written = 0, block = 0; written < bytes; block++) {
    const lines: string[] = [];
    for (let index = 0; index < 20_000; index++, rows++) {
      lines.push(
        `E${String(rows % 9000).padStart(4, '0')},2026-11-${String((rows % 28) + 1).padStart(2, '0')},${(rows % 32) / 4 + 0.25},batch-${block}\n`,
      );
    }
    const text = lines.join('');
    writeSync(fd, text);
    written += text.length;
  }
  closeSync(fd);
  return rows;
}

/*
 * The issue asks for a 1 GB export under 200 MB. On two shared cores a 1 GB pass takes
 * minutes, so the 1 GB case lives in bench/file.bench.ts (--mb 1024). This test filters a
 * 64 MB export (2.2 million rows) in a process whose JavaScript heap is capped at 64 MB:
 * holding the rows would crash it, and its peak resident memory must stay under 200 MB.
 */
describe('a large export', () => {
  it('is filtered in bounded memory: 64 MB (2.2 million rows) through a 64 MB heap, peak under 200 MB', async () => {
    const path = join(dir.path, 'hours.csv');
    const rows = writeExport(path, 64 * 1024 * 1024);
    expect(statSync(path).size).toBeGreaterThan(64 * 1024 * 1024);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--max-old-space-size=64',
        '--import',
        'tsx',
        join(import.meta.dirname, 'fixtures', 'filter-export.ts'),
        dir.path,
      ],
      { timeout: 200_000, killSignal: 'SIGKILL' },
    );
    const result = JSON.parse(stdout) as {
      matched: number;
      scanned: number;
      returned: number;
      truncated: boolean;
      max_rss_mb: number;
    };
    expect(result.scanned).toBe(rows);
    expect(result.matched).toBe(Math.floor((rows - 43) / 9000) + 1);
    expect(result.returned).toBe(25);
    expect(result.truncated).toBe(true);
    expect(result.max_rss_mb).toBeLessThan(200);
  }, 240_000);
});
