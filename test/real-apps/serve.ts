/**
 * Starts bed applications by hand and keeps them running until Ctrl-C:
 *   npm run real-apps:serve -- wordpress [mediawiki ...] [--json]
 * Prints each app's URLs, credentials, a policy file and a `lift session start` line.
 * `kill -USR1 <pid>` (or typing "reset" and Enter) puts every app back to its seed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { APP_NAMES, type Apps, isAppName, startApp } from './bed.js';

type AnyApp = Apps[keyof Apps];

function describe(app: AnyApp, policyFile: string): string {
  const secret = `${app.name}_password`;
  return [
    `${app.name}: ${app.baseUrl}`,
    `  start page  ${app.startUrl}`,
    `  sign in at  ${app.signInUrl}`,
    `  credentials ${app.credentials.user} / ${app.credentials.password}`,
    `  policy      ${policyFile}`,
    `  folder      ${app.dir}`,
    '  explore     ' +
      `LIFT_SECRET_${secret.toUpperCase()}='${app.credentials.password}' npx lift session start --url '${app.startUrl}' ` +
      `--policy ${policyFile} --user '${app.credentials.user}' --secret ${secret} --task '...'`,
  ].join('\n');
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const names = args.filter((arg) => !arg.startsWith('--'));
  const unknown = names.filter((name) => !isAppName(name));
  if (names.length === 0 || unknown.length > 0) {
    console.error(`Usage: npm run real-apps:serve -- ${APP_NAMES.join('|')} [more apps] [--json]`);
    if (unknown.length > 0) console.error(`Unknown app: ${unknown.join(', ')}`);
    return 2;
  }
  const apps: AnyApp[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const app of apps.splice(0).reverse())
      await app.stop().catch((error) => console.error(String(error)));
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  try {
    for (const name of names.filter(isAppName)) {
      const started = Date.now();
      const app = await startApp(name);
      apps.push(app);
      const policyFile = join(app.dir, 'policy.json');
      writeFileSync(policyFile, JSON.stringify({ version: 1, origins: [app.origin] }, null, 2));
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (json) {
        const { name: appName, baseUrl, origin, startUrl, signInUrl, credentials, dir, seed } = app;
        console.log(
          JSON.stringify({
            name: appName,
            baseUrl,
            origin,
            startUrl,
            signInUrl,
            credentials,
            dir,
            policyFile,
            seed,
          }),
        );
      } else console.log(`${describe(app, policyFile)}\n  started in ${seconds} s\n`);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    await stopAll(1);
    return 1;
  }
  const reset = async () => {
    for (const app of apps) {
      const started = Date.now();
      await app.reset();
      console.log(`${app.name}: reset to its seed in ${Date.now() - started} ms`);
    }
  };
  process.on('SIGUSR1', () => void reset());
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() === 'reset') void reset();
  });
  if (!json)
    console.log(`Running (pid ${process.pid}). Ctrl-C stops; "reset" or kill -USR1 ${process.pid} resets.`);
  // Runs until a signal: the timer only keeps the process alive when stdin is closed.
  setInterval(() => undefined, 60_000);
  return new Promise<number>(() => undefined);
}

process.exitCode = await main();
