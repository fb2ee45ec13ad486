import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PRIVATE_FILE_MODE } from '../../contract/paths.js';
import { parse, UsageError } from '../args.js';
import { readHidden } from '../hidden-prompt.js';
import type { CliIo, Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { GENERATE_HINT, newServeToken, TOKEN_SECRET, weakTokenProblem } from '../serve-token.js';
import { defineCommand } from '../spec.js';

export const spec = defineCommand({
  name: 'secrets',
  summary: 'the secret store: names only, values never printed',
  options: {
    out: {
      type: 'string',
      value: 'FILE',
      description:
        'generate: also write the new value to FILE (created new, mode 600) to hand it to a client',
    },
    json: { type: 'boolean', default: false, description: 'print JSON instead of text' },
  },
  examples: ['lift secrets list', 'lift secrets generate serve_token --out ~/lift-token.txt'],
  subcommands: {
    list: {
      summary: 'the stored secret names (also LIFT_SECRET_<NAME> from the environment)',
      options: ['json'],
      examples: ['lift secrets list', 'lift secrets list --json'],
      default: true,
    },
    set: {
      summary: 'store a secret: asked for at a terminal (not shown), else read from standard input',
      arguments: [{ name: 'name', description: 'the secret name, e.g. openai_api_key or serve_token' }],
      options: ['json'],
      examples: ['lift secrets set openai_api_key', 'lift secrets set smtp_password < password.txt'],
    },
    generate: {
      summary: 'store a new random value (256 bits), never printed; --out FILE hands it to a client',
      arguments: [{ name: 'name', description: 'the secret name, e.g. serve_token' }],
      options: ['out', 'json'],
      examples: ['lift secrets generate serve_token', 'lift secrets generate serve_token --out token.txt'],
    },
  },
  notes:
    'A value is never printed: not by list, not by generate. The serve_token must hold at least 128 bits (lift secrets generate serve_token makes one).',
});

async function readStdin(io: CliIo): Promise<string> {
  if (!io.stdin) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** The value to store: typed at a terminal without echo, or read whole from a pipe or file. */
async function valueToStore(io: CliIo, name: string): Promise<string> {
  if (io.stdin?.isTTY)
    return readHidden(io.stdin, `Type or paste the value of ${name}, then Enter (it is not shown):`, io.err);
  return readStdin(io);
}

function writeNew(file: string, value: string): void {
  try {
    writeFileSync(file, `${value}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'EEXIST'
        ? `--out ${file} already exists; give a new file (nothing was stored).`
        : `--out ${file} could not be written (${code ?? String(error)}); nothing was stored.`,
    );
  }
}

function refuse(io: CliIo, json: boolean, message: string, hint: string): number {
  if (json) printJson(io, { ok: false, error: { code: 'BAD_INPUT', message, hint } });
  else io.err(`BAD_INPUT: ${message}\nhint: ${hint}`);
  return 1;
}

/**
 * lift secrets list | set NAME | generate NAME. A value typed at a terminal is not echoed, one
 * piped in never lands in shell history or a process list, and a generated one is never
 * printed (a model running the command would read it): --out writes it to a new private file.
 */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const [action = 'list', name] = positionals;
  if ((action === 'set' || action === 'generate') && !name)
    throw new UsageError(`Usage: lift secrets ${action} NAME`);
  const secretName = (name ?? '').toLowerCase();
  const runtime = await openRuntime(io);
  try {
    const secrets = runtime.store.secrets;
    const file = `${runtime.home}/secrets.json`;
    if (action === 'list') {
      if (values.json) printJson(io, secrets.names());
      else for (const stored of secrets.names()) io.out(stored);
      return 0;
    }
    if (action === 'set') {
      const value = await valueToStore(io, secretName);
      if (!value) throw new UsageError('No value given: echo "$VALUE" | lift secrets set NAME');
      const weak = secretName === TOKEN_SECRET ? weakTokenProblem(value) : undefined;
      if (weak) return refuse(io, values.json, `${weak} Nothing was stored.`, GENERATE_HINT);
      secrets.set(secretName, value);
      if (values.json) printJson(io, { ok: true, name: secretName, file });
      else io.out(`stored secret '${secretName}' in ${file} (mode 600)`);
      return 0;
    }
    const value = newServeToken();
    const out = values.out === undefined ? undefined : resolve(io.cwd, values.out);
    // Created new (never through an existing file or link), before the store changes.
    if (out) writeNew(out, value);
    secrets.set(secretName, value);
    if (values.json) printJson(io, { ok: true, name: secretName, file, ...(out ? { out } : {}), bits: 256 });
    else
      io.out(
        `stored a new random '${secretName}' (256 bits) in ${file} (mode 600); it is not printed${out ? `, and is in ${out} (mode 600) for a client` : ''}.`,
      );
    return 0;
  } finally {
    await runtime.close();
  }
};
