import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';

/**
 * Starting Lift loads no office, browser, design, mail or model-call library: each loads when a
 * tool that needs it first runs. A module loader hook records every package the process
 * resolves, whatever imports it; no timing is measured (bench/startup.bench.ts does that).
 */
const HEAVY = [
  'exceljs',
  'docx',
  'pptxgenjs',
  'hyperformula',
  'jszip',
  'playwright-core',
  'pdfjs-dist',
  'ag-psd',
  'web-ifc',
  '@napi-rs/canvas',
  'dxf-parser',
  '@tarikjabiri/dxf',
  'imapflow',
  'nodemailer',
  'js-tiktoken',
  'ai',
  '@xmpp/client',
  'csv-parse',
];

const ROOT = join(import.meta.dirname, '..', '..');
const dir = tempDir();
const log = join(dir.path, 'packages.log');
const hook = join(dir.path, 'record-packages.mjs');
writeFileSync(
  hook,
  `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const match = /node_modules\\\\/((?:@[^/]+\\\\/)?[^/]+)\\\\//.exec(resolved.url);
  if (match) appendFileSync(${JSON.stringify(log)}, match[1] + '\\\\n');
  return resolved;
}\`));
`,
);
afterAll(() => dir.remove());

/** Runs node with the hook and returns the packages it resolved. */
function packagesLoadedBy(args: string[], input = ''): Promise<Set<string>> {
  writeFileSync(log, '');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(hook).href, ...args], {
      cwd: dir.path,
      env: { ...process.env, LIFT_HOME: join(dir.path, 'home') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      // The server has answered tools/list: enough has loaded to serve.
      if (stdout.includes('"id":2')) child.stdin.end();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean)));
    });
    child.stdin.write(input);
    if (!input) child.stdin.end();
  });
}

const heavyIn = (packages: Set<string>) => HEAVY.filter((name) => packages.has(name));
const LIFT = join(ROOT, 'dist', 'cli', 'main.js');

describe('starting Lift', () => {
  it("import('lift') loads none of the heavy libraries", async () => {
    const index = pathToFileURL(join(ROOT, 'dist', 'index.js')).href;
    const packages = await packagesLoadedBy([
      '--input-type=module',
      '-e',
      `const lift = await import(${JSON.stringify(index)}); if (!lift.defineTool) process.exit(3);`,
    ]);
    expect(packages.has('zod')).toBe(true); // the hook saw the loads
    expect(heavyIn(packages)).toEqual([]);
  });

  it('lift tools list declares every built-in tool without loading their libraries', async () => {
    const packages = await packagesLoadedBy([LIFT, 'tools', 'list']);
    expect(packages.has('better-sqlite3')).toBe(true);
    expect(heavyIn(packages)).toEqual([]);
  });

  it('lift serve --stdio answers initialize and tools/list without loading them', async () => {
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    const packages = await packagesLoadedBy(
      [LIFT, 'serve', '--stdio'],
      messages.map((message) => `${JSON.stringify(message)}\n`).join(''),
    );
    expect(packages.has('@modelcontextprotocol/sdk')).toBe(true);
    expect(heavyIn(packages)).toEqual([]);
  });
});
