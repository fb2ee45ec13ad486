import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { openRuntime } from '../open-runtime.js';

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
  const { positionals } = parse(args, {});
  const [action = 'list', name] = positionals;
  const runtime = await openRuntime(io);
  try {
    const secrets = runtime.store.secrets;
    if (action === 'list') {
      for (const secretName of secrets.names()) io.out(secretName);
      return 0;
    }
    if (action === 'set') {
      if (!name)
        throw new UsageError('Usage: lift secrets set NAME   (the value is read from standard input)');
      const value = await readStdin(io);
      if (!value) throw new UsageError('No value on standard input: echo "$VALUE" | lift secrets set NAME');
      secrets.set(name, value);
      io.out(`stored secret '${name.toLowerCase()}' in ${runtime.home}/secrets.json (mode 600)`);
      return 0;
    }
    throw new UsageError('Usage: lift secrets list | lift secrets set NAME');
  } finally {
    await runtime.close();
  }
};
