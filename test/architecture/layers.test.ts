import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');

/** Node's own modules (`node:fs`); allowed wherever a folder lists NODE. */
const NODE = 'node:*';

interface Rule {
  /** Folders of src/ the folder may import (its own always), `rungs` meaning every rung. */
  folders: string[];
  /** npm packages the folder may import; `@scope/*` allows a whole scope. */
  packages: string[];
}

/**
 * What each folder may import, as Playwright's DEPS lists say it: the layers point down only,
 * contract <- store <- runtime <- rungs/* <- (capability, model) <- discover, replay <- ladder,
 * agent, serve <- cli. `rungs/`, `apps/` and `fixtures/` hold one folder per door, program or
 * fixture, each a folder of its own here. Fixtures stand in for other people's programs, so
 * they import nothing of Lift. No exceptions by file: a file that needs more belongs elsewhere.
 */
const RULES: Record<string, Rule> = {
  contract: { folders: [], packages: ['re2js', 'zod', NODE] },
  // The store hashes held inputs in canonical JSON (RFC 8785), in its migrations too.
  store: { folders: ['contract'], packages: ['better-sqlite3', 'canonicalize', 'pg', NODE] },
  runtime: { folders: ['contract', 'store'], packages: ['zod', NODE] },
  config: { folders: ['contract'], packages: ['tsx', 'yaml', 'zod', NODE] },
  lint: { folders: ['contract', 'config'], packages: ['@modelcontextprotocol/sdk', NODE] },
  'rungs/api': { folders: ['contract', 'config'], packages: ['zod', NODE] },
  'rungs/cli': { folders: ['contract'], packages: ['csv-parse', 'zod', NODE] },
  'rungs/file': {
    folders: ['contract', 'store'],
    packages: ['csv-parse', 'exceljs', 'zod', NODE],
  },
  // The desktop rung runs its bridge as a wrapped program and judges actions with the UI rung's classifier.
  'rungs/desktop': {
    folders: ['contract', 'store', 'runtime', 'rungs/cli', 'rungs/ui'],
    packages: ['yaml', 'zod', NODE],
  },
  'rungs/ui': {
    folders: ['contract', 'store', 'runtime', 'config'],
    packages: ['playwright-core', 'js-tiktoken', 'zod', NODE],
  },
  capability: {
    folders: ['contract', 'store', 'runtime', 'rungs/ui'],
    packages: ['playwright-core', 'zod'],
  },
  model: { folders: ['contract', 'store'], packages: ['ai', '@ai-sdk/*'] },
  // Replay never reaches the model side: no model folder, no model SDK (test/architecture/replay-import-graph).
  replay: {
    folders: ['contract', 'store', 'runtime', 'rungs/ui', 'rungs/desktop', 'capability'],
    packages: ['playwright-core', 'zod', NODE],
  },
  // Discovery proves what it compiled by replaying it (rehearsal.ts): discover may reach replay, never the reverse.
  discover: {
    folders: ['contract', 'store', 'runtime', 'rungs/ui', 'capability', 'model', 'replay'],
    packages: ['playwright-core', 'zod', 'ai', '@ai-sdk/provider-utils', '@modelcontextprotocol/sdk', NODE],
  },
  ladder: {
    folders: ['contract', 'store', 'runtime', 'config', 'rungs', 'capability'],
    packages: ['zod', NODE],
  },
  agent: {
    folders: ['contract', 'store', 'runtime', 'model'],
    packages: ['ai', '@ai-sdk/provider-utils', 'zod', NODE],
  },
  // The job queue on the shared database (pg-boss), and the workers that take its jobs.
  queue: { folders: ['contract', 'store', 'runtime'], packages: ['pg-boss', NODE] },
  worker: { folders: ['contract', 'runtime', 'queue'], packages: [NODE] },
  serve: {
    folders: ['contract', 'store', 'runtime'],
    packages: ['@modelcontextprotocol/sdk', 'ai', '@ai-sdk/*', 'zod', NODE],
  },
  // The console shows runs, capabilities, tools and the ladder, and relays handed-over pages (rungs/ui/handoff).
  console: {
    folders: ['contract', 'store', 'runtime', 'rungs/ui', 'capability', 'replay', 'ladder'],
    packages: ['zod', NODE],
  },
  apps: { folders: ['contract', 'apps'], packages: [] },
  // The ladder's worked example as an app: its discovery scripts, its replayed close, its declaration.
  'apps/backoffice': {
    folders: ['contract', 'runtime', 'rungs', 'replay', 'discover', 'ladder'],
    packages: ['zod', NODE],
  },
  'apps/chat': { folders: ['contract', 'rungs'], packages: ['@xmpp/*', 'zod', NODE] },
  'apps/email': {
    folders: ['contract', 'rungs'],
    packages: ['imapflow', 'mailparser', 'nodemailer', 'zod', NODE],
  },
  'apps/ifc': { folders: ['contract', 'rungs', 'apps/plan'], packages: ['web-ifc', 'zod', NODE] },
  'apps/image': { folders: ['contract', 'rungs'], packages: ['@napi-rs/canvas', 'ag-psd', 'zod', NODE] },
  'apps/plan': { folders: ['contract', 'rungs'], packages: ['@tarikjabiri/dxf', 'dxf-parser', 'zod', NODE] },
  'apps/render3d': {
    folders: ['contract', 'rungs', 'apps/plan'],
    packages: ['@napi-rs/canvas', 'zod', NODE],
  },
  // Titles: fonts measured by @napi-rs/canvas, frames read by it, the .jsx parsed by acorn.
  'apps/video': {
    folders: ['contract', 'rungs'],
    packages: ['@napi-rs/canvas', 'acorn', 'acorn-walk', 'saxes', 'zod', NODE],
  },
  'apps/git': { folders: ['contract', 'rungs'], packages: ['zod', NODE] },
  'apps/hledger': { folders: ['contract', 'rungs'], packages: ['zod', NODE] },
  'apps/inventory': { folders: ['contract', 'rungs'], packages: ['zod', NODE] },
  'apps/office': {
    folders: ['contract'],
    packages: ['docx', 'exceljs', 'hyperformula', 'pptxgenjs', 'zod', NODE],
  },
  'apps/payroll': { folders: ['contract', 'rungs'], packages: ['zod', NODE] },
  'apps/postgres': { folders: ['contract', 'rungs'], packages: ['zod'] },
  'apps/services': { folders: ['contract', 'rungs'], packages: ['zod', NODE] },
  'fixtures/backoffice': { folders: [], packages: [NODE] },
  'fixtures/inventory': { folders: [], packages: [] },
  'fixtures/payroll': { folders: [], packages: [NODE] },
  'fixtures/services': { folders: [], packages: [] },
  // The top: the command line, the built-in tool list and the public API may import any folder.
  // The demonstration's phases, below the command that runs them.
  demo: {
    folders: [
      'contract',
      'store',
      'runtime',
      'rungs/ui',
      'capability',
      'discover',
      'replay',
      'apps/backoffice',
      'fixtures/backoffice',
    ],
    packages: [],
  },
  cli: { folders: ['*'], packages: ['commander', NODE] },
  '.': { folders: ['*'], packages: [] },
};

/** Folders that hold one folder per door, program or fixture; each of those is a layer of its own. */
const FAMILIES = new Set(['rungs', 'apps', 'fixtures']);

function files(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!);
}

/** The layer a file of src/ belongs to: its top folder, or family/member (rungs/ui). */
function folderOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  if (parts.length === 1) return '.';
  const [top, member] = parts;
  return FAMILIES.has(top!) && parts.length > 2 ? `${top}/${member}` : top!;
}

function packageOf(specifier: string): string {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) return NODE;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

function folderAllowed(rule: Rule, own: string, target: string): boolean {
  if (target === own || rule.folders.includes('*')) return true;
  return rule.folders.some((folder) => target === folder || target.startsWith(`${folder}/`));
}

function packageAllowed(rule: Rule, name: string): boolean {
  return rule.packages.some((allowed) =>
    allowed.endsWith('/*') ? name.startsWith(allowed.slice(0, -1)) : name === allowed,
  );
}

interface Edge {
  from: string;
  to: string;
  file: string;
}

const edges: Edge[] = [];
const packageUses: Array<{ folder: string; name: string; file: string }> = [];
for (const file of files(SRC)) {
  const from = folderOf(file);
  for (const specifier of specifiers(file)) {
    if (!specifier.startsWith('.')) {
      packageUses.push({ folder: from, name: packageOf(specifier), file: relative(SRC, file) });
      continue;
    }
    const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
    edges.push({ from, to: folderOf(target), file: relative(SRC, file) });
  }
}

/** A cycle among folders for each back edge a depth-first walk meets, as the path that closes it. */
function cycles(graph: Array<Pick<Edge, 'from' | 'to'>>): string[] {
  const next = new Map<string, Set<string>>();
  for (const edge of graph) {
    if (edge.from === edge.to) continue;
    if (!next.has(edge.from)) next.set(edge.from, new Set());
    next.get(edge.from)!.add(edge.to);
  }
  const found: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (folder: string): void => {
    const at = path.indexOf(folder);
    if (at >= 0) {
      found.push([...path.slice(at), folder].join(' -> '));
      return;
    }
    if (done.has(folder)) return;
    path.push(folder);
    for (const to of next.get(folder) ?? []) visit(to);
    path.pop();
    done.add(folder);
  };
  for (const folder of [...next.keys()].sort()) visit(folder);
  return found;
}

describe('layers', () => {
  it('every folder of src/ has a rule', () => {
    const folders = new Set([...edges.map((edge) => edge.from), ...packageUses.map((use) => use.folder)]);
    expect([...folders].filter((folder) => !RULES[folder]).sort()).toEqual([]);
  });

  it('import only from the folders below them', () => {
    const violations = edges
      .filter((edge) => !folderAllowed(RULES[edge.from] ?? { folders: [], packages: [] }, edge.from, edge.to))
      .map((edge) => `${edge.file} imports ${edge.to}/`);
    expect(violations).toEqual([]);
  });

  it('no two folders import each other, directly or through others', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('import only the npm packages their folder lists', () => {
    const violations = packageUses
      .filter((use) => !packageAllowed(RULES[use.folder] ?? { folders: [], packages: [] }, use.name))
      .map((use) => `${use.file} imports ${use.name}`);
    expect(violations).toEqual([]);
  });

  it('use every folder and package their rule allows: an allowance nobody uses only widens the layer', () => {
    const unused = Object.entries(RULES).flatMap(([folder, rule]) => [
      ...rule.folders
        .filter((allowed) => allowed !== '*')
        .filter(
          (allowed) =>
            !edges.some(
              (edge) =>
                edge.from === folder &&
                edge.to !== folder &&
                (edge.to === allowed || edge.to.startsWith(`${allowed}/`)),
            ),
        )
        .map((allowed) => `${folder} allows ${allowed}/`),
      ...rule.packages
        .filter(
          (allowed) =>
            !packageUses.some(
              (use) =>
                use.folder === folder && packageAllowed({ folders: [], packages: [allowed] }, use.name),
            ),
        )
        .map((allowed) => `${folder} allows ${allowed}`),
    ]);
    expect(unused).toEqual([]);
  });

  it('sees the real graph (the checks above cannot pass on an empty one)', () => {
    expect(edges.some((edge) => edge.from === 'replay' && edge.to === 'capability')).toBe(true);
    expect(packageUses.some((use) => use.folder === 'model' && use.name === 'ai')).toBe(true);
    expect(
      cycles([
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
        { from: 'c', to: 'a' },
      ]),
    ).toEqual(['a -> b -> c -> a']);
  });
});
