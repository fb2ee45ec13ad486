import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';

/**
 * The newcomer's check of docs/adding-an-app.md: the family its worked example writes out
 * (`notes`, two tools over Debian's sqlite3) is built from the page's own code blocks into a
 * copy of src/, registered where the page says, checked the way its "Done means" says, and
 * called through `lift call`. A block that no longer compiles, lints, registers or works fails
 * here.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const GUIDE = readFileSync(join(ROOT, 'docs', 'adding-an-app.md'), 'utf8');
const TSX = pathToFileURL(createRequire(join(ROOT, 'package.json')).resolve('tsx')).href;

/** The page's blocks: whole files (```ts file=PATH) and lines to add to a file (```ts add-to=PATH). */
function blocks(kind: 'file' | 'add-to'): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of GUIDE.matchAll(new RegExp(`^\`\`\`ts ${kind}=(\\S+)\\n([\\s\\S]*?)^\`\`\`$`, 'gm')))
    found.set(match[1]!, match[2]!);
  return found;
}

/** Where each addition goes: after the line that opens the list the page names. */
const OPENING_LINE: Record<string, RegExp> = {
  'src/builtin.ts': /^const AREAS\b.*= \[$/m,
  'src/families.ts': /^const FAMILIES\b.*= \[$/m,
  'test/architecture/layers.test.ts': /^const RULES\b.*= \{$/m,
  'src/index.ts': /$(?![\s\S])/,
};

/** The checks of "Done means" that need no program: run on the copy, with the family in it. */
const TESTS_OF_DONE = [
  'test/architecture/layers.test.ts',
  'test/contract/events.test.ts',
  'test/public-api.test.ts',
];

interface Ran {
  code: number | null;
  out: string;
}

function run(program: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  // A vitest inside this one must not take this run's worker settings for its own.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('VITEST') && !['NODE_ENV', 'FORCE_COLOR'].includes(name),
    ),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      cwd,
      env: { ...inherited, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const work = tempDir('lift-guide-');
const copy = join(work.path, 'lift');
let doneChecks: Promise<Ran[]>;

/** `lift ARGS` from the copy's source, in `cwd`, with its own home. */
function lift(args: string[], cwd: string, home: string): Promise<Ran> {
  return run(process.execPath, ['--import', TSX, join(copy, 'src', 'cli', 'main.ts'), ...args], cwd, {
    LIFT_HOME: home,
  });
}

function envelope(ran: Ran): Record<string, unknown> & { fields?: Record<string, unknown> } {
  try {
    return JSON.parse(ran.out);
  } catch {
    throw new Error(`lift call printed no envelope (exit ${ran.code}):\n${ran.out}`);
  }
}

function folder(name: string): string {
  const path = join(work.path, name);
  mkdirSync(path, { recursive: true });
  return path;
}

beforeAll(() => {
  cpSync(join(ROOT, 'src'), join(copy, 'src'), { recursive: true });
  for (const file of ['package.json', 'tsconfig.json', 'biome.json', '.gitignore', ...TESTS_OF_DONE])
    cpSync(join(ROOT, file), join(copy, file));
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));

  for (const [path, text] of blocks('file')) {
    mkdirSync(dirname(join(copy, path)), { recursive: true });
    writeFileSync(join(copy, path), text);
  }
  for (const [path, lines] of blocks('add-to')) {
    const target = join(copy, path);
    const text = readFileSync(target, 'utf8');
    const opening = OPENING_LINE[path]?.exec(text);
    if (!opening) throw new Error(`The page adds to ${path}, which this check cannot place.`);
    const at = opening.index + opening[0].length;
    writeFileSync(target, `${text.slice(0, at)}\n${lines.trimEnd()}${text.slice(at)}`);
  }
  // The page says it in words: the factory's name joins the public API's list.
  const publicApi = join(copy, 'test', 'public-api.test.ts');
  writeFileSync(
    publicApi,
    readFileSync(publicApi, 'utf8').replace("'payrollTools',", "'notesTools', 'payrollTools',"),
  );
  writeFileSync(
    join(copy, 'tsconfig.family.json'),
    JSON.stringify({ extends: './tsconfig.json', include: ['src/apps/notes', 'src/families.ts'] }),
  );

  const bin = (path: string) => join(ROOT, 'node_modules', path);
  doneChecks = Promise.all([
    run(process.execPath, [bin('typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.family.json'], copy),
    run(process.execPath, [bin('@biomejs/biome/bin/biome'), 'check', 'src/apps/notes'], copy),
    run(process.execPath, [bin('vitest/vitest.mjs'), 'run', '--maxWorkers=1', ...TESTS_OF_DONE], copy),
  ]);
});

afterAll(async () => {
  await doneChecks?.catch(() => undefined);
  work.remove();
});

describe('docs/adding-an-app.md, followed by a newcomer', { timeout: 120_000 }, () => {
  it('writes out the whole family and says where each piece registers', () => {
    expect([...blocks('file').keys()].sort()).toEqual(
      ['add', 'events', 'read', 'settings', 'sqlite', 'tools'].map((name) => `src/apps/notes/${name}.ts`),
    );
    expect([...blocks('add-to').keys()].sort()).toEqual(Object.keys(OPENING_LINE).sort());
    // Every path the page names in backticks is one a clone has.
    const named = [...GUIDE.matchAll(/`((?:src|test|docs|scripts)\/[\w./-]*\w)`/g)].map((match) => match[1]!);
    const missing = named.filter(
      (path) => !path.includes('/notes') && !path.includes('<') && !existsSync(join(ROOT, path)),
    );
    expect(missing).toEqual([]);
    expect(GUIDE).toContain('(style.md)');
  });

  it('lift lint finds both tools with nothing to fix, and lift tools show prints the contract', async () => {
    const cwd = folder('lint');
    const lint = await lift(['lint', join(copy, 'src', 'apps', 'notes', 'tools.ts')], cwd, join(cwd, 'home'));
    expect(lint.out).toContain('2 tools, 0 findings');
    expect(lint.code).toBe(0);
    const card = await lift(['tools', 'show', 'notes_add'], cwd, join(cwd, 'home'));
    expect(card.code, card.out).toBe(0);
    expect(card.out).toMatch(/class: reversible/);
    expect(card.out).toContain('settle: notes_read with the same request_id');
    expect(card.out).not.toContain('Hidden from lift serve');
  });

  it('adds a note through sqlite3 in the data folder, reads it back, and logs its event', async () => {
    const cwd = folder('calls');
    const home = join(cwd, 'home');
    const none = envelope(
      await lift(['call', 'notes_read', '--input', '{"request_id":"note-0001"}'], cwd, home),
    );
    expect(none.error).toMatchObject({ code: 'NOT_FOUND', outcome: 'not_started' });

    // A quote and a semicolon reach sqlite3 as data, not as SQL.
    const text = "Order more M4 bolts; it's urgent";
    const input = JSON.stringify({ request_id: 'note-0001', text });
    const added = envelope(await lift(['call', 'notes_add', '--input', input], cwd, home));
    expect(added).toMatchObject({ ok: true, effect: 'changed', fields: { request_id: 'note-0001', text } });
    expect(added.checks).toEqual([{ name: 'the note reads back as written', passed: true }]);
    expect(existsSync(join(home, 'data', 'notes', 'notes.db'))).toBe(true);

    const read = envelope(
      await lift(['call', 'notes_read', '--input', '{"request_id":"note-0001"}'], cwd, home),
    );
    expect(read).toMatchObject({ ok: true, fields: { text } });

    const log = readdirSync(join(home, 'runs'))
      .map((name) => readFileSync(join(home, 'runs', name), 'utf8'))
      .join('');
    expect(log).toContain('"note-added"');
  });

  it('with the database set in lift.config, a Lift with an empty ledger finds the note by its request_id', async () => {
    const cwd = folder('configured');
    const database = join(cwd, 'shared', 'notes.db');
    mkdirSync(dirname(database));
    writeFileSync(join(cwd, 'lift.config.json'), JSON.stringify({ settings: { notes: { database } } }));
    const input = JSON.stringify({ request_id: 'note-0002', text: 'Count the shelves' });

    const first = envelope(await lift(['call', 'notes_add', '--input', input], cwd, join(cwd, 'home-1')));
    expect(first).toMatchObject({ ok: true, effect: 'changed' });
    expect(existsSync(database)).toBe(true);
    const again = envelope(await lift(['call', 'notes_add', '--input', input], cwd, join(cwd, 'home-2')));
    expect(again).toMatchObject({ ok: true, effect: 'existing', fields: { text: 'Count the shelves' } });
  });

  // Last: the checks have run in the background meanwhile (started in beforeAll).
  it('type-checks, passes Biome, and keeps the layer, event and public-API tests green', async () => {
    const [tsc, biome, vitest] = await doneChecks;
    expect(tsc?.out).toBe('');
    expect(tsc?.code).toBe(0);
    expect(biome?.code, biome?.out).toBe(0);
    expect(vitest?.code, vitest?.out).toBe(0);
    expect(vitest?.out).toMatch(/Test Files {2}3 passed/);
  });
});
