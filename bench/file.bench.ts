/**
 * Rows per second filtered from a large CSV export by the file rung (header check, filter on
 * a named column, cap, count) against a plain streaming parse of the same file with the same
 * library (csv-parse, same options) in the same run, and the peak memory of a filtered read.
 *
 *   node --import tsx bench/file.bench.ts              # 100 MB export
 *   node --import tsx bench/file.bench.ts --mb 1024    # the 1 GB export (takes minutes on 2 cores)
 *   LIFT_BENCH_SHORT=1 ...                             # a 2 MB export, one pass each (bench/short.ts)
 *
 * Rates use CPU time (user + system) of the pass, because a shared 2-core machine makes wall
 * time depend on other work; wall time is printed too. Each side runs twice, alternating, and
 * the faster pass counts.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readExport } from '../src/rungs/file/index.js';
import { BIG_EXPORT, plainParse } from './file-export-reader.js';
import { iterations, option } from './short.js';

/** Writes an export of about `bytes` bytes quickly: one block of varied rows, repeated with a changing batch. */
function generate(path: string, bytes: number): number {
  const fd = openSync(path, 'w');
  writeSync(fd, 'employee_id,work_date,hours,batch\n');
  let rows = 0;
  let written = 0;
  for (let block = 0; written < bytes; block++) {
    const lines: string[] = [];
    for (let index = 0; index < 20_000; index++) {
      const n = block * 20_000 + index;
      lines.push(
        `E${String(n % 9000).padStart(4, '0')},2026-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')},${(n % 32) / 4 + 0.25},b${block % 997}\n`,
      );
    }
    const text = lines.join('');
    writeSync(fd, text);
    written += text.length;
    rows += lines.length;
  }
  closeSync(fd);
  return rows;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; cpu: number; wall: number }> {
  const cpu0 = cpuMs();
  const wall0 = performance.now();
  const value = await work();
  return { value, cpu: cpuMs() - cpu0, wall: performance.now() - wall0 };
}

const mb = option('mb', 100, 2);
const dir = mkdtempSync(join(tmpdir(), 'lift-file-bench-'));
try {
  const path = join(dir, 'hours-20261130T120000000Z.csv');
  const rows = generate(path, mb * 1024 * 1024);
  const size = statSync(path).size;
  console.log(`export: ${(size / 1024 / 1024).toFixed(0)} MB, ${rows} rows`);
  const filters = [{ column: 'employee_id', op: 'eq' as const, value: 'E0042' }];
  const contract = { ...BIG_EXPORT, dir };
  let base = Number.POSITIVE_INFINITY;
  let lift = Number.POSITIVE_INFINITY;
  let baseWall = 0;
  let liftWall = 0;
  let matched = 0;
  const rounds = mb > 200 ? 1 : iterations(2, 1);
  for (let round = 0; round < rounds; round++) {
    const plain = await timed(() => plainParse(path));
    if (plain.value !== rows) throw new Error(`plain parse saw ${plain.value} rows, expected ${rows}`);
    if (plain.cpu < base) [base, baseWall] = [plain.cpu, plain.wall];
    const filtered = await timed(() => readExport(contract, { filters, limit: 50 }));
    if (filtered.value.scanned !== rows)
      throw new Error(`lift scanned ${filtered.value.scanned} rows, expected ${rows}`);
    matched = filtered.value.matched;
    if (filtered.cpu < lift) [lift, liftWall] = [filtered.cpu, filtered.wall];
  }
  const liftRate = rows / (lift / 1000);
  const baseRate = rows / (base / 1000);
  console.log(
    `filtered rows/s (cpu): lift ${Math.round(liftRate)}, baseline ${Math.round(baseRate)}, ratio ${(liftRate / baseRate).toFixed(2)}`,
  );
  console.log(
    `filtered rows/s (wall): lift ${Math.round(rows / (liftWall / 1000))}, baseline ${Math.round(rows / (baseWall / 1000))}, ratio ${(baseWall / liftWall).toFixed(2)}`,
  );
  console.log(`matched ${matched} rows (employee_id = E0042), 50 returned`);
  // Peak memory of each pass alone, in its own process.
  const peak = (mode: 'lift' | 'plain') =>
    (
      JSON.parse(
        execFileSync(
          process.execPath,
          ['--import', 'tsx', join(import.meta.dirname, 'file-export-reader.ts'), dir, mode],
          {
            encoding: 'utf8',
          },
        ),
      ) as { max_rss_mb: number }
    ).max_rss_mb;
  const liftPeak = peak('lift');
  const plainPeak = peak('plain');
  console.log(
    `peak memory (MB) filtering the ${(size / 1024 / 1024).toFixed(0)} MB export: lift ${liftPeak.toFixed(0)}, baseline ${plainPeak.toFixed(0)}, ratio ${(liftPeak / plainPeak).toFixed(2)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
