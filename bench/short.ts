/**
 * The benchmarks' short mode: LIFT_BENCH_SHORT=1 runs each bench with the fewest iterations that
 * still go through every path it measures and print every line it prints (its ratios included),
 * so that test/bench/ can run them all in a few minutes and none rots unseen. The figures of a
 * short run mean nothing; a full run (no LIFT_BENCH_SHORT) is what a closing note quotes.
 */
export const SHORT = process.env.LIFT_BENCH_SHORT === '1';

/** How many times to do something: `full` in a real run, `short` under LIFT_BENCH_SHORT=1. */
export function iterations(full: number, short: number): number {
  return SHORT ? short : full;
}

/** A bench's environment setting (BENCH_REPLAYS=N and the like) when given, else its default for the mode. */
export function setting(name: string, full: number, short: number): number {
  const given = process.env[name];
  return given === undefined || given === '' ? iterations(full, short) : Number(given);
}

/** A command-line option (`--runs 9`) when given, else its default for the mode. */
export function option(name: string, full: number, short: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : iterations(full, short);
}
