/**
 * How long the bed takes: each app started alone (its own MariaDB, as a test file does),
 * reset five times, stopped. Run: node --import tsx test/real-apps/timings.ts [app...]
 */
import { APP_NAMES, type AppName, isAppName, startApp } from './bed.js';

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

const chosen = process.argv.slice(2).filter(isAppName);
const names: readonly AppName[] = chosen.length > 0 ? chosen : APP_NAMES;
console.log('app           start (s)  reset median (s)  reset max (s)  stop (s)');
for (const name of names) {
  const [app, start] = await timed(() => startApp(name));
  const resets: number[] = [];
  for (let round = 0; round < 5; round++) resets.push((await timed(() => app.reset()))[1]);
  const [, stop] = await timed(() => app.stop());
  resets.sort((a, b) => a - b);
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  console.log(
    `${name.padEnd(12)}  ${seconds(start).padStart(9)}  ${seconds(resets[2] ?? 0).padStart(16)}  ${seconds(resets[4] ?? 0).padStart(13)}  ${seconds(stop).padStart(8)}`,
  );
}
