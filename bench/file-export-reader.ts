/**
 * The contract of the benchmark's export, and, run as a script (`FOLDER lift|plain`), one
 * filtered read of the newest export there, or one plain csv-parse pass over it, printing
 * the process's peak resident memory as JSON.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { HOURS_EXPORT_SHAPE } from '../src/apps/payroll/settings.js';
import { type ExportContract, listExports, readExport } from '../src/rungs/file/index.js';

/** The payroll program's export shape, in a folder of the benchmark's own. */
export const BIG_EXPORT: ExportContract = {
  dir: '.',
  ...HOURS_EXPORT_SHAPE,
  columns: [...HOURS_EXPORT_SHAPE.columns],
  maxAgeMs: 365 * 24 * 3600 * 1000,
};

export async function filterOnce(dir: string) {
  const read = await readExport(
    { ...BIG_EXPORT, dir },
    { filters: [{ column: 'employee_id', op: 'eq', value: 'E0042' }], limit: 50 },
  );
  return {
    matched: read.matched,
    scanned: read.scanned,
    returned: read.rows.length,
    truncated: read.truncated,
  };
}

export async function plainParse(path: string): Promise<number> {
  let rows = 0;
  await new Promise<void>((resolve, reject) => {
    const parser = parse({ delimiter: ',', bom: true, relax_column_count: true, skip_empty_lines: true });
    parser.on('data', () => {
      rows++;
    });
    parser.on('end', resolve);
    parser.on('error', reject);
    createReadStream(path, { highWaterMark: 1 << 20 }).pipe(parser);
  });
  return rows - 1;
}

if (process.argv[1]?.endsWith('file-export-reader.ts') && process.argv[2]) {
  const dir = process.argv[2];
  const [newest] = listExports(dir, BIG_EXPORT.pattern);
  const result =
    process.argv[3] === 'plain' && newest
      ? { scanned: await plainParse(newest.path) }
      : await filterOnce(dir);
  process.stdout.write(JSON.stringify({ ...result, max_rss_mb: process.resourceUsage().maxRSS / 1024 }));
}
