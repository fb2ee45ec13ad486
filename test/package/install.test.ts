import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * The package as a user gets it: packed with `npm pack`, installed from the tarball into an
 * empty folder, and run through the `lift` bin that npm links there. Nothing of the checkout
 * is reachable from that folder, so a file missing from `files` fails here.
 */
describe('the packed package, installed in an empty folder', () => {
  const folder = tempDir('lift-package-');
  const app = join(folder.path, 'app');
  const home = join(folder.path, 'home');
  let tarball = '';
  const lift = () => join(app, 'node_modules', '.bin', 'lift');
  const env = () => ({ ...process.env, LIFT_HOME: home, npm_config_update_notifier: 'false' });

  beforeAll(() => {
    // npm test has just built dist/, so the pack skips its prepack build.
    execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', folder.path], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 180_000,
    });
    tarball = join(folder.path, readdirSync(folder.path).find((name) => name.endsWith('.tgz'))!);
    execFileSync('mkdir', ['-p', app, home]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'uses-lift', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
      cwd: app,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 900_000,
    });
  }, 1_000_000);

  afterAll(() => folder.remove());

  it('ships the built code and its assets, and no tests, benchmarks or sources', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(listing).toContain('package/dist/cli/main.js');
    expect(listing).toContain('package/dist/index.d.ts');
    expect(listing).toContain('package/src/apps/office/bridge.py');
    expect(listing.filter((path) => /^package\/(test|bench|scripts)\//.test(path))).toEqual([]);
    expect(listing.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
    expect(listing.filter((path) => path.endsWith('.map'))).toEqual([]);
  });

  it('answers npx lift --version with the package version', () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    const result = spawnSync('npx', ['--no-install', 'lift', '--version'], {
      cwd: app,
      env: env(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });

  it('runs npx lift demo --json to the end with zero model events in its replays', () => {
    const result = spawnSync('npx', ['--no-install', 'lift', 'demo', '--json'], {
      cwd: app,
      env: env(),
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { ledger: Array<{ task: string; model: number }> };
    const replays = report.ledger.filter((row) => row.task.startsWith('replay'));
    expect(replays.length).toBeGreaterThan(0);
    expect(replays.every((row) => row.model === 0)).toBe(true);
  }, 300_000);

  it('serves initialize and tools/list over stdio from the installed bin', async () => {
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: lift(),
        args: ['serve', '--stdio'],
        cwd: app,
        env: env() as Record<string, string>,
        stderr: 'ignore',
      }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe('lift');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('convert_document');
    } finally {
      await client.close();
    }
  }, 120_000);
});
