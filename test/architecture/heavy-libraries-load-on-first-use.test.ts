import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';

/**
 * Starting Lift loads no office, browser, design, mail or model-call library, and none of the
 * modules that carry out a tool: each loads when a tool that needs it first runs (a declaration
 * keeps its contract and imports its implementation inside run). A module loader hook records
 * every package and every Lift module the process resolves, whatever imports it; no timing is
 * measured (bench/startup.bench.ts does that).
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
  'saxes',
  'acorn',
  'acorn-walk',
];

/** Lift's own implementation modules (under dist/) that only a call needs, by the area that owns them. */
const IMPLEMENTATIONS = [
  'apps/plan/design.js',
  'apps/plan/draft.js',
  'apps/plan/resize-search.js',
  'apps/office/deck-writer.js',
  'apps/office/report-writer.js',
  'apps/office/xlsx-writer.js',
  'apps/office/formula-engine.js',
  'apps/office/workbook-layout.js',
  'rungs/file/sources/index.js',
  'apps/email/draft-version.js',
  'apps/email/drafts.js',
  'apps/email/smtp.js',
  'apps/chat/session.js',
  'apps/chat/post-message.js',
  'apps/chat/withdraw.js',
  'apps/video/timeline-build.js',
  'apps/video/title-build.js',
];

/** What `lift`'s main entry leaves to the entry points of src/on-first-use.ts. */
const SERVING_AND_MODEL = [
  '@modelcontextprotocol/sdk',
  'hono',
  '@hono/node-server',
  '@ai-sdk/openai',
  '@ai-sdk/anthropic',
  '@ai-sdk/openai-compatible',
  '@ai-sdk/provider-utils',
];
const FIRST_USE_LAYERS = [
  'serve/mcp-server.js',
  'serve/http.js',
  'agent/loop.js',
  'discover/run.js',
  'replay/engine.js',
];

const ROOT = join(import.meta.dirname, '..', '..');
const DIST = `${pathToFileURL(join(ROOT, 'dist')).href}/`;
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
  else if (resolved.url.startsWith(${JSON.stringify(DIST)}))
    appendFileSync(${JSON.stringify(log)}, 'lift:' + resolved.url.slice(${DIST.length}) + '\\\\n');
  return resolved;
}\`));
`,
);
afterAll(() => dir.remove());

interface Loaded {
  exitCode: number | null;
  stdout: string;
  /** Package names, and Lift modules as `lift:<path under dist/>`. */
  modules: Set<string>;
}

/** Runs node with the hook and returns what it resolved, whatever its exit code. */
function modulesLoadedBy(args: string[], input = ''): Promise<Loaded> {
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
      if (code === null) reject(new Error(`node ${args.join(' ')} was killed: ${stderr}`));
      else
        resolve({
          exitCode: code,
          stdout,
          modules: new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean)),
        });
    });
    child.stdin.write(input);
    if (!input) child.stdin.end();
  });
}

/** Runs node with the hook and returns the packages and Lift modules it resolved; it must exit 0. */
async function packagesLoadedBy(args: string[], input = ''): Promise<Set<string>> {
  const loaded = await modulesLoadedBy(args, input);
  if (loaded.exitCode !== 0) throw new Error(`node ${args.join(' ')} exited ${loaded.exitCode}`);
  return loaded.modules;
}

const heavyIn = (packages: Set<string>) => HEAVY.filter((name) => packages.has(name));
const implementationsIn = (modules: Set<string>) =>
  IMPLEMENTATIONS.filter((path) => modules.has(`lift:${path}`));
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
    expect(packages.has('lift:index.js')).toBe(true);
    expect(heavyIn(packages)).toEqual([]);
    expect(implementationsIn(packages)).toEqual([]);
  });

  it("import('lift') loads no serving, model or YAML library: those entry points load them on first call", async () => {
    const index = pathToFileURL(join(ROOT, 'dist', 'index.js')).href;
    // yaml is CommonJS under Node, loaded with require: the require cache shows it.
    const packages = await packagesLoadedBy([
      '--input-type=module',
      '-e',
      `import { createRequire } from 'node:module';
       const lift = await import(${JSON.stringify(index)});
       if (typeof lift.serveStdio !== 'function' || typeof lift.toAiSdkTools !== 'function') process.exit(3);
       if (Object.keys(createRequire(${JSON.stringify(index)}).cache).some((path) => path.includes('/node_modules/yaml/'))) process.exit(4);`,
    ]);
    expect(packages.has('lift:index.js')).toBe(true);
    expect(SERVING_AND_MODEL.filter((name) => packages.has(name))).toEqual([]);
    expect(FIRST_USE_LAYERS.filter((path) => packages.has(`lift:${path}`))).toEqual([]);
  });

  it('lift tools list declares every built-in tool without loading their libraries', async () => {
    const packages = await packagesLoadedBy([LIFT, 'tools', 'list']);
    expect(packages.has('better-sqlite3')).toBe(true);
    expect(heavyIn(packages)).toEqual([]);
    expect(implementationsIn(packages)).toEqual([]);
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
    expect(implementationsIn(packages)).toEqual([]);
  });
});

describe('calling a tool', () => {
  // Each call fails before it reaches a program or a server (a missing plan file in the output
  // folder, no account configured), after its tool has loaded what it runs with.
  const missingPlan = join(dir.path, 'home', 'out', 'draw_house_plan', 'none', 'v0.plan.json');
  it.each([
    ['set_sheet', { plan_file: missingPlan, scale: '1:100' }, 'apps/plan/draft.js'],
    [
      'email_draft_save',
      { to: ['ops@example.org'], subject: 'Weekly', body: 'Hello', request_id: 'startup-0001' },
      'apps/email/draft-version.js',
    ],
    ['chat_history', { to: '#team' }, 'apps/chat/session.js'],
  ])('%s loads its implementation when it is first called', async (name, input, implementation) => {
    const loaded = await modulesLoadedBy([LIFT, 'call', name, '--input', JSON.stringify(input)]);
    expect(JSON.parse(loaded.stdout)).toMatchObject({ ok: false, tool: name });
    expect(loaded.modules.has(`lift:${implementation}`)).toBe(true);
  });
});
