import { spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_FAMILIES } from '../../src/families.js';
import { startBackoffice } from '../../src/fixtures/backoffice/index.js';
import { startPayrollDaemon } from '../../src/fixtures/payroll/start.js';
import { startSupervisor } from '../apps/services/supervisor.js';
import { LIFT_BIN } from '../support/cli.js';
import { startPostgres } from '../support/postgres-server.js';
import { tempDir } from '../support/temp.js';

// Every family's example (examples/<family>/README.md) run as its README says: each line of the
// README's sh block, by bash, from a temporary copy of the folder with its own LIFT_HOME, `lift` on
// PATH and installed as a package would be (node_modules/lift).
const ROOT = join(import.meta.dirname, '..', '..');
const EXAMPLES = join(ROOT, 'examples');

/** Families whose servers are too heavy for this run (their READMEs say so); test/apps/<family>/ covers them. */
const LEFT_OUT: Record<string, string> = {
  email: 'needs Dovecot and Postfix',
  chat: 'needs Prosody',
};

const work = tempDir('lift-examples-');
afterAll(() => work.remove());

const bin = join(work.path, 'bin');
mkdirSync(bin);
writeFileSync(join(bin, 'lift'), `#!/bin/sh\nexec "${process.execPath}" "${LIFT_BIN}" "$@"\n`);
chmodSync(join(bin, 'lift'), 0o755);

/** The lines of the README's first sh block: one command each. */
function commandsOf(family: string): string[] {
  const readme = readFileSync(join(EXAMPLES, family, 'README.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error(`examples/${family}/README.md has no sh block`);
  return block.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

function bash(
  line: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', line], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

interface Envelope {
  ok: boolean;
  checks?: Array<{ name: string; passed: boolean; detail?: string }>;
  error?: { code: string };
}

/** A temporary copy of the example, with its own home and the lift package beside it. */
function copyOf(family: string): { dir: string; env: Record<string, string> } {
  const dir = join(work.path, family);
  cpSync(join(EXAMPLES, family), dir, { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'lift'));
  const home = join(work.path, `${family}-home`);
  return { dir, env: { LIFT_HOME: home, PATH: `${bin}:${process.env.PATH ?? ''}` } };
}

/** Sets one value of the copy's lift.config.json: the address of a server the test started. */
function configure(
  dir: string,
  set: (config: { settings: Record<string, Record<string, unknown>> }) => void,
) {
  const file = join(dir, 'lift.config.json');
  const config = JSON.parse(readFileSync(file, 'utf8'));
  set(config);
  writeFileSync(file, JSON.stringify(config));
}

/** Starts what a family's example needs, from the helpers its own tests use; returns how to stop it. */
const SERVERS: Record<string, (dir: string, env: Record<string, string>) => Promise<() => Promise<void>>> = {
  backoffice: async (dir) => {
    const fixture = await startBackoffice();
    configure(dir, (config) => {
      config.settings.backoffice!.url = fixture.url;
    });
    return () => fixture.close();
  },
  payroll: async (dir) => {
    const daemon = await startPayrollDaemon({ root: join(dir, 'payroll'), pollMs: 300, exportMs: 1_000 });
    return () => daemon.stop();
  },
  services: async (dir) => {
    const supervisor = await startSupervisor();
    configure(dir, (config) => {
      config.settings.services!.supervisorConfig = supervisor.config;
    });
    return () => supervisor.stop();
  },
  postgres: async (_dir, env) => {
    const server = await startPostgres();
    const password = `example-${process.pid}`;
    server.admin(
      `CREATE ROLE lift LOGIN PASSWORD '${password}'; CREATE TABLE stock (sku text PRIMARY KEY, qty int); INSERT INTO stock VALUES ('A-100', 4), ('A-101', 40), ('B-200', 7); GRANT SELECT ON stock TO lift`,
    );
    env.PGPORT = String(server.port);
    env.PG_PASSWORD = password;
    return async () => server.stop();
  },
};

describe('examples/: one runnable example per family', () => {
  it('has a folder with a README for every family, and a line for each in examples/README.md', () => {
    const folders = readdirSync(EXAMPLES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual([...BUILTIN_FAMILIES].sort());
    const index = readFileSync(join(EXAMPLES, 'README.md'), 'utf8');
    for (const family of BUILTIN_FAMILIES) {
      expect(existsSync(join(EXAMPLES, family, 'README.md')), family).toBe(true);
      expect(index, family).toMatch(new RegExp(`^\\| \\[${family}\\]\\(${family}/\\) +\\|`, 'm'));
    }
  });

  for (const family of BUILTIN_FAMILIES) {
    const run = family in LEFT_OUT ? it.skip : it;
    run(`${family}: its README's commands succeed and every check passes`, { timeout: 110_000 }, async () => {
      const { dir, env } = copyOf(family);
      const stop = await SERVERS[family]?.(dir, env);
      try {
        const lines = commandsOf(family);
        let held = false;
        for (const line of lines) {
          const result = await bash(line, dir, env);
          const where = `${family}: ${line.slice(0, 80)}\n${result.stderr}\n${result.stdout.slice(0, 2000)}`;
          if (!/^lift (call|approve|demo) /.test(line)) {
            expect(result.code, where).toBe(0);
            continue;
          }
          const envelope = JSON.parse(result.stdout) as Envelope;
          if (envelope.error?.code === 'APPROVAL_PENDING') {
            // Held for a person: the README approves it on a later line.
            expect(result.code, where).toBe(4);
            expect(
              lines.some((later) => later.startsWith('lift approve ')),
              where,
            ).toBe(true);
            held = true;
            continue;
          }
          expect(envelope.ok, where).toBe(true);
          expect(result.code, where).toBe(0);
          for (const check of envelope.checks ?? [])
            expect(check.passed, `${where}\n${check.name}`).toBe(true);
          if (line.startsWith('lift approve ')) held = false;
        }
        expect(held, `${family}: a held call was never approved`).toBe(false);
      } finally {
        await stop?.();
      }
    });
  }
});
