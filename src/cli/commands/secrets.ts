import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { defineCommand } from '../spec.js';

export const spec = defineCommand({
  name: 'secrets',
  summary: 'the secret store: names only, values never printed',
  options: { json: { type: 'boolean', default: false, description: 'print JSON instead of text' } },
  examples: ['lift secrets list', 'echo "$TOKEN" | lift secrets set serve_token'],
  subcommands: {
    list: {
      summary: 'the stored secret names (also LIFT_SECRET_<NAME> from the environment)',
      examples: ['lift secrets list', 'lift secrets list --json'],
      default: true,
    },
    set: {
      summary: 'store a secret; the value is read from standard input',
      arguments: [{ name: 'name', description: 'the secret name, e.g. openai_api_key or serve_token' }],
      examples: [
        'echo "$OPENAI_API_KEY" | lift secrets set openai_api_key',
        'lift secrets set serve_token < token.txt',
      ],
    },
  },
});

async function readStdin(io: Parameters<Command>[1]): Promise<string> {
  if (!io.stdin) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * lift secrets list | lift secrets set NAME (value on stdin, so it never lands in shell
 * history or a process list). Values are never printed.
 */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const [action = 'list', name] = positionals;
  const runtime = await openRuntime(io);
  try {
    const secrets = runtime.store.secrets;
    if (action === 'list') {
      if (values.json) printJson(io, secrets.names());
      else for (const secretName of secrets.names()) io.out(secretName);
      return 0;
    }
    if (action === 'set') {
      if (!name)
        throw new UsageError('Usage: lift secrets set NAME   (the value is read from standard input)');
      const value = await readStdin(io);
      if (!value) throw new UsageError('No value on standard input: echo "$VALUE" | lift secrets set NAME');
      secrets.set(name, value);
      if (values.json)
        printJson(io, { ok: true, name: name.toLowerCase(), file: `${runtime.home}/secrets.json` });
      else io.out(`stored secret '${name.toLowerCase()}' in ${runtime.home}/secrets.json (mode 600)`);
      return 0;
    }
    throw new UsageError('Usage: lift secrets list | lift secrets set NAME');
  } finally {
    await runtime.close();
  }
};
