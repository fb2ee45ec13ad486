import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { PageHarness } from '../../src/rungs/ui/harness.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { parseSignInRecipe, passwordFormSignIn, type SignInRecipeInput } from '../../src/rungs/ui/sign-in.js';
import { type PhpMyAdminApp, type RoundcubeApp, startApp } from './bed.js';

const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');

/** Runs `lift` from the source, bounded. */
function lift(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { env: { ...process.env, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }),
    );
  });
}

// phpMyAdmin: a Language select before the form; "Username:" and "Password:" labels; "Log in".
const PHPMYADMIN: SignInRecipeInput = {
  fields: [
    { target: { locator: { by: 'field', label: 'Username' } }, value: { literal: 'shopadmin' } },
    { target: { locator: { by: 'field', label: 'Password' } }, value: { secret: 'phpmyadmin_password' } },
  ],
  submit: { click: { locator: { by: 'role', role: 'button', name: 'Log in' } } },
  success: { visible: { locator: { by: 'role', role: 'link', name: 'Log out' } } },
};

// Roundcube: its labels are hidden cells beside icons; the boxes are named by their placeholders.
const ROUNDCUBE: SignInRecipeInput = {
  fields: [
    {
      target: { locator: { by: 'role', role: 'textbox', name: 'Username' } },
      value: { literal: 'alice@example.test' },
    },
    {
      target: { locator: { by: 'role', role: 'textbox', name: 'Password' } },
      value: { secret: 'roundcube_password' },
    },
  ],
  submit: { click: { locator: { by: 'role', role: 'button', name: 'Login' } } },
  success: { visible: { locator: { by: 'role', role: 'table', name: 'Email Messages Listing' } } },
};

let phpmyadmin: PhpMyAdminApp;
let roundcube: RoundcubeApp;
let browser: Browser;
let home: string;
let env: Record<string, string>;

beforeAll(async () => {
  [phpmyadmin, roundcube, browser] = await Promise.all([
    startApp('phpmyadmin'),
    startApp('roundcube'),
    launchBrowser(),
  ]);
  home = mkdtempSync(join(tmpdir(), 'lift-sign-in-recipes-'));
  env = {
    LIFT_HOME: join(home, 'lift'),
    LIFT_SECRET_PHPMYADMIN_PASSWORD: phpmyadmin.credentials.password,
    LIFT_SECRET_ROUNDCUBE_PASSWORD: roundcube.credentials.password,
  };
  writeFileSync(join(home, 'phpmyadmin.yaml'), toYaml(PHPMYADMIN));
  writeFileSync(join(home, 'roundcube.json'), JSON.stringify(ROUNDCUBE));
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([phpmyadmin?.stop(), roundcube?.stop()]);
  if (home) rmSync(home, { recursive: true, force: true });
});

/** A `lift session` signed in by the recipe file, observed once, then stopped. */
async function sessionObservation(app: PhpMyAdminApp | RoundcubeApp, recipe: string): Promise<string> {
  const policy = join(home, `${app.name}-policy.json`);
  writeFileSync(policy, JSON.stringify({ origins: [app.origin] }));
  const started = await lift(
    [
      'session',
      'start',
      '--url',
      app.startUrl,
      '--policy',
      policy,
      '--task',
      'look around',
      '--input',
      'anything=value',
      '--output',
      'nothing:string',
      '--sign-in',
      join(home, recipe),
      '--json',
    ],
    env,
  );
  expect(started.code, started.stderr).toBe(0);
  const { id } = JSON.parse(started.stdout) as { id: string };
  try {
    const observed = await lift(['session', 'observe', id], env);
    expect(observed.code, observed.stderr).toBe(0);
    return observed.stdout;
  } finally {
    await lift(['session', 'stop', id], env);
  }
}

describe('sign-in by a recipe file on real login forms', () => {
  it('phpMyAdmin: the recipe types user and password by their labels, past the Language select', async () => {
    const context = await browser.newContext();
    try {
      const harness = await PageHarness.open(await context.newPage(), {
        policy: parsePolicy({ origins: [phpmyadmin.origin] }),
        signIn: parseSignInRecipe(PHPMYADMIN),
        secret: () => phpmyadmin.credentials.password,
      });
      await harness.goto(phpmyadmin.startUrl);
      expect(await harness.state()).toBe('auth_required');
      await harness.signIn();
      const { observation } = await harness.observe(1);
      expect(observation.state).toBe('ready');
      // The shop database's tables: signed in as shopadmin, on the start page.
      expect(observation.tables.flatMap((table) => table.rows.map((row) => row.join(' ')))).toEqual(
        expect.arrayContaining([expect.stringContaining('customers'), expect.stringContaining('orders')]),
      );
      expect(observation.text).not.toContain(phpmyadmin.credentials.password);
    } finally {
      await context.close();
    }
  });

  // lift session start --sign-in FILE, from the source (slow under load: a daemon of its own).
  it('Roundcube: the recipe fills the icon-labelled boxes, clicks Login and waits for the message list', {
    timeout: 400_000,
  }, async () => {
    const observation = await sessionObservation(roundcube, 'roundcube.json');
    expect(observation).toContain('state: ready');
    expect(observation).toContain('Lunch on Friday?');
    expect(observation).not.toContain(roundcube.credentials.password);
  });

  it("phpMyAdmin's Change password form is no sign-in, by the recipe's fields nor by the short form", async () => {
    const context = await browser.newContext();
    try {
      const open = (recipe: ReturnType<typeof parseSignInRecipe>) =>
        context.newPage().then((page) =>
          PageHarness.open(page, {
            policy: parsePolicy({ origins: [phpmyadmin.origin] }),
            signIn: recipe,
            secret: () => phpmyadmin.credentials.password,
          }),
        );
      const harness = await open(parseSignInRecipe(PHPMYADMIN));
      await harness.goto(phpmyadmin.startUrl);
      expect(await harness.state()).toBe('auth_required');
      await harness.signIn();
      await harness.goto(`${phpmyadmin.origin}/index.php?route=/user-password`);
      await harness.page.getByRole('button', { name: 'Go' }).waitFor();
      expect(await harness.state()).toBe('ready');
      const short = await open(passwordFormSignIn('shopadmin', { secret: 'phpmyadmin_password' }));
      // The short form finds its fields itself; two password boxes in one form are no sign-in either.
      await short.goto(`${phpmyadmin.origin}/index.php?route=/user-password`);
      await short.page.getByRole('button', { name: 'Go' }).waitFor();
      expect(await short.state()).toBe('ready');
    } finally {
      await context.close();
    }
  });
});
