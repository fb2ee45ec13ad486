/**
 * Office tools, warm against cold, in one run: each tool's median wall time through
 * Runtime.invoke with the warm worker (one long-lived LibreOffice) and with a new LibreOffice
 * process per call (the cold path). Every call must come back ok, so the times include
 * recalculation, read-back, checks and the PDF.
 *
 *   node --import tsx bench/office.bench.ts        or        npm run bench -- office
 *
 * Target (issue 10): warm under 1.5 s for the marks sheet. LIFT_BENCH_SHORT=1: one call of each
 * tool each way (bench/short.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tools } from '../src/apps/office/tools.js';
import { ColdOffice, OFFICE_SERVICE, type OfficeRunner, WarmOffice } from '../src/apps/office/worker.js';
import { Runtime } from '../src/runtime/runtime.js';
import { MARKS_SHEET } from '../test/apps/office/fixtures/marks-sheet.js';
import { iterations } from './short.js';

const WARM_RUNS = iterations(5, 1);
/** A cold call costs a whole office start; the marks sheet gets three, the others one, to stay near a minute. */
const COLD_RUNS = [iterations(3, 1), 1, 1, 1];

const PARAGRAPH =
  'Sales in the north grew faster than in any other region, helped by two new stores. '.repeat(6);

/** The calls timed, in order; `csv` is the file convert_document turns into a PDF. */
function calls(csv: string): Array<{ name: string; tool: string; input: unknown }> {
  return [
    { name: 'build_workbook (marks sheet)', tool: 'build_workbook', input: { plan: MARKS_SHEET } },
    {
      name: 'build_deck (6 slides)',
      tool: 'build_deck',
      input: {
        outline: {
          title: 'Quarterly review',
          slides: Array.from({ length: 6 }, (_, index) => ({
            title: `Topic ${index + 1}`,
            bullets: ['Sales up 12%', 'Two new stores', 'Margins held'],
          })),
        },
      },
    },
    {
      name: 'build_report (4 sections, contents)',
      tool: 'build_report',
      input: {
        report: {
          title: 'Store review',
          sections: ['Summary', 'Regions', 'Staff', 'Outlook'].map((heading) => ({
            heading,
            paragraphs: [PARAGRAPH, PARAGRAPH],
          })),
        },
      },
    },
    { name: 'convert_document (csv to pdf)', tool: 'convert_document', input: { path: csv, to: 'pdf' } },
  ];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function timeCalls(runtime: Runtime, tool: string, input: unknown, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const envelope = await runtime.invoke(tool, input);
    times.push(performance.now() - started);
    if (!envelope.ok) throw new Error(`${tool} failed: ${JSON.stringify(envelope).slice(0, 600)}`);
  }
  return times;
}

/**
 * A runtime whose home and inputs are folders of their own: the tools refuse every path in Lift's
 * home, so the CSV to convert lies in `inputs`, the root the runtime is given (as `--root` does).
 */
async function withRuntime<T>(
  runner: OfficeRunner,
  work: (runtime: Runtime, csv: string) => Promise<T>,
): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), 'lift-office-bench-'));
  const inputs = join(folder, 'inputs');
  mkdirSync(inputs);
  const csv = join(inputs, 'stock.csv');
  writeFileSync(csv, 'Item,Quantity,Warehouse\nLanterns,12,Karachi\nBlankets,40,Lahore\n');
  const runtime = new Runtime({ home: join(folder, 'home'), tools, defaultRoots: [inputs] });
  await runtime.service(OFFICE_SERVICE, () => runner);
  try {
    return await work(runtime, csv);
  } finally {
    await runtime.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const warm = new WarmOffice();
const warmStart = performance.now();
await warm.warm();
const startMs = performance.now() - warmStart;
const warmTimes = await withRuntime(warm, async (runtime, csv) => {
  const results: number[][] = [];
  for (const call of calls(csv)) results.push(await timeCalls(runtime, call.tool, call.input, WARM_RUNS));
  return results;
});
const coldTimes = await withRuntime(new ColdOffice(), async (runtime, csv) => {
  const results: number[][] = [];
  for (const [index, call] of calls(csv).entries()) {
    results.push(await timeCalls(runtime, call.tool, call.input, COLD_RUNS[index] ?? 1));
  }
  return results;
});

console.log(`office worker start (once per worker): ${seconds(startMs)}`);
calls('stock.csv').forEach((call, index) => {
  const lift = median(warmTimes[index]!);
  const baseline = median(coldTimes[index]!);
  console.log(
    `${call.name}: lift ${seconds(lift)} warm (median of ${WARM_RUNS}), baseline ${seconds(baseline)} cold (median of ${COLD_RUNS[index] ?? 1}), ratio ${(lift / baseline).toFixed(2)}`,
  );
});
const marks = median(warmTimes[0]!);
console.log(`marks sheet warm target < 1.5 s: ${marks < 1500 ? 'met' : 'not met'} (${seconds(marks)})`);
