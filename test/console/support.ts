import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Capability } from '../../src/capability/capability.js';
import { profileFor } from '../../src/rungs/ui/page-pool.js';
import { launchChromium } from '../replay/helpers.js';
import { lift, startLift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

// A serve token must hold 128 bits: lift console refuses a weaker one.
export const TOKEN = 'console-token-6cvL8HLc_EsY9Emf1W8FvRSkcpbdJ2CC';

export interface ConsoleWorld {
  dir: string;
  env: Record<string, string>;
  url: string;
  browser: Browser;
  page: Page;
  call(tool: string, input: unknown, extra?: string[]): WaitingCall;
  close(): Promise<void>;
}

export interface WaitingCall {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** A child's whole output and exit code, once it has closed. */
export function collect(child: ChildProcess): WaitingCall['done'] {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Reads the console's address from its first line of output (bounded). */
function consoleUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`lift console did not start: ${text}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /(http:\/\/\S+\/console\/)/.exec(text);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
  });
}

/**
 * A Lift home with the foundation test tools, one `lift console` on a free port, and one
 * browser signed in to it: what every console test file starts from.
 */
export async function startConsoleWorld(
  options: { secrets?: Record<string, string>; viewport?: { width: number; height: number } } = {},
): Promise<ConsoleWorld> {
  const temp = tempDir('lift-console-');
  const tools = join(import.meta.dirname, '..', 'support', 'foundation-tools.ts');
  writeFileSync(join(temp.path, 'lift.config.json'), JSON.stringify({ tools: [tools] }));
  const env = { LIFT_HOME: join(temp.path, 'home'), LIFT_TEST_SYSTEM: join(temp.path, 'system.json') };
  for (const [name, value] of Object.entries({ serve_token: TOKEN, ...options.secrets })) {
    const stored = await lift(['secrets', 'set', name], { cwd: temp.path, env, input: value });
    if (stored.code !== 0) throw new Error(stored.stderr);
  }
  const server = startLift(['console', '--port', '0'], { cwd: temp.path, env });
  let url: string;
  try {
    url = await consoleUrl(server);
  } catch (error) {
    server.kill('SIGKILL');
    temp.remove();
    throw error;
  }
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.getByLabel('Serve token').fill(TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\/approvals/);
  const waiting: ChildProcess[] = [];
  return {
    dir: temp.path,
    env,
    url,
    browser,
    page,
    call: (tool, input, extra = []) => {
      const child = startLift(['call', tool, '--input', JSON.stringify(input), '--wait', ...extra], {
        cwd: temp.path,
        env,
      });
      waiting.push(child);
      return { child, done: collect(child) };
    },
    close: async () => {
      await browser.close();
      for (const child of [...waiting, server]) if (child.exitCode === null) child.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 100));
      temp.remove();
    },
  };
}

/**
 * With LIFT_CONSOLE_SCREENSHOTS=docs/console the tests leave a picture of the page at 1280x800
 * and at 390 px wide (the README's pictures); without it they take none.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.LIFT_CONSOLE_SCREENSHOTS;
  if (!dir) return;
  const wide = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.screenshot({ path: join(dir, `${name}.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(dir, `${name}-narrow.png`) });
  await page.setViewportSize(wide);
}

/**
 * Leaves the signed-in browser profile of `page` where the replays of the world's home look
 * for `origin`'s, as an earlier sign-in of theirs would have.
 */
export async function seedProfile(world: ConsoleWorld, origin: string, page: Page): Promise<void> {
  const folder = join(world.env.LIFT_HOME!, 'profiles', profileFor(origin));
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  writeFileSync(join(folder, 'storage-state.json'), JSON.stringify(await page.context().storageState()));
}

/**
 * Registers a capability in the world's home with `lift capabilities add`, and leaves the
 * signed-in profile of `page` for its replays (seedProfile).
 */
export async function addCapability(
  world: ConsoleWorld,
  name: string,
  capability: Capability,
  effect: 'read' | 'visible',
  page: Page,
): Promise<void> {
  const file = join(world.dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(capability));
  const added = await lift(['capabilities', 'add', file, '--effect', effect], {
    cwd: world.dir,
    env: world.env,
  });
  if (added.code !== 0) throw new Error(`lift capabilities add ${name} failed: ${added.stderr}`);
  await seedProfile(world, capability.preconditions.origin, page);
}
