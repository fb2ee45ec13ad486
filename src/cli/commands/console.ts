import type { Runtime } from '../../runtime/runtime.js';
import { parse, UsageError } from '../args.js';
import type { CliIo, Command } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { GENERATE_HINT, TOKEN_SECRET, weakTokenProblem } from '../serve-token.js';
import { defineCommand } from '../spec.js';

const USAGE = 'Usage: lift console [--port 4400] [--host 127.0.0.1]';

export const spec = defineCommand({
  name: 'console',
  summary: 'the console in a browser: held calls, handoffs, runs, capabilities, tools and the ladder',
  options: {
    port: { type: 'string', default: '4400', value: 'PORT', description: 'the port to listen on' },
    host: { type: 'string', default: '127.0.0.1', value: 'HOST', description: 'the address to listen on' },
  },
  examples: ['lift console', 'lift console --port 4500'],
  notes:
    'Sign in with the serve token (lift secrets generate serve_token --out FILE); lift serve --http serves the same pages under /console.',
});

function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

async function serve(runtime: Runtime, io: CliIo, port: number, host: string): Promise<number> {
  if (!runtime.store.secrets.has(TOKEN_SECRET)) {
    io.err(
      `lift console signs people in with the serve token. Store one first: lift secrets generate ${TOKEN_SECRET} --out FILE (or lift secrets set ${TOKEN_SECRET}, or set LIFT_SECRET_SERVE_TOKEN).`,
    );
    return 1;
  }
  const token = runtime.store.secrets.get(TOKEN_SECRET);
  const weak = weakTokenProblem(token);
  if (weak) {
    io.err(`lift console refuses to start: ${weak}\nhint: ${GENERATE_HINT}`);
    return 1;
  }
  const { serveConsole } = await import('../../console/server.js');
  const serving = await serveConsole(runtime, { port, host, token });
  if (host !== 'localhost' && host !== '::1' && !host.startsWith('127.'))
    io.err(`Listening on ${host}: reachable from other machines; signing in still needs the token.`);
  io.out(`Lift console at ${serving.url} (sign in with the ${TOKEN_SECRET} secret).`);
  await untilStopped();
  await serving.close();
  return 0;
}

/** lift console: held calls, handoffs, runs, capabilities and tools in a browser. */
export const run: Command = async (args, io) => {
  const { values } = parse(args, spec);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--port needs a port number. ${USAGE}`);
  // A held replay approved here runs here: an expired session it meets is handed over here too.
  const runtime = await openRuntime(io, { attended: true });
  try {
    return await serve(runtime, io, port, values.host);
  } finally {
    await runtime.close();
  }
};
