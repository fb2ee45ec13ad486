import type { AnyTool } from '../../contract/define-tool.js';
import { LIFT_VERSION } from '../../contract/version.js';
import type { Runtime } from '../../runtime/runtime.js';
import { describeEvent } from '../../serve/event-words.js';
import type { LiftServerOptions } from '../../serve/mcp-server.js';
import { originOf } from '../../serve/origin.js';
import type { RunEvent } from '../../store/runs.js';
import { parse, UsageError } from '../args.js';
import { debugLog } from '../debug-log.js';
import type { CliIo, Command } from '../io.js';
import { jobQueue, openRuntimeThenTools } from '../open-runtime.js';
import { queuedInvoke } from '../queued-invoke.js';
import { ROOT_OPTION } from '../root-flags.js';
import { GENERATE_HINT, TOKEN_SECRET, weakTokenProblem } from '../serve-token.js';
import { CAPS_OPTION, capsOf, ServedTools } from '../served-tools.js';
import { defineCommand } from '../spec.js';

const USAGE =
  'Usage: lift serve --stdio | --http PORT [--host 127.0.0.1] [--allow-origin ORIGIN]... [--queue] [--root DIR]... [--caps FAMILY,...]';

/** Aborts on the first SIGINT or SIGTERM. */
function stopSignal(): AbortSignal {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return controller.signal;
}

/** With LIFT_LOG=debug, each event of each call on stderr (scrubbed), as the run log records it. */
function debugEvents(runtime: Runtime, io: CliIo): { onEvent?: (tool: string, event: RunEvent) => void } {
  const debug = debugLog(io);
  if (io.env.LIFT_LOG !== 'debug') return {};
  return { onEvent: (tool, event) => debug(`${tool}: ${runtime.store.secrets.scrub(describeEvent(event))}`) };
}

/**
 * How the server runs calls: here, or with --queue on the shared queue's workers (the job is
 * named by the request id; a held call is released to the workers by an approval given
 * anywhere). The queue is opened now, so a missing shared store fails before serving.
 */
async function callsOf(runtime: Runtime, queue: boolean): Promise<Pick<LiftServerOptions, 'invoke'>> {
  if (!queue) return {};
  await jobQueue(runtime);
  return { invoke: queuedInvoke(runtime) };
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

async function serveOverHttp(
  runtime: Runtime,
  calls: Pick<LiftServerOptions, 'invoke' | 'elicitSignatures' | 'hidden'>,
  io: CliIo,
  port: number,
  host: string,
  origins: string[],
  stop: AbortSignal,
): Promise<number> {
  if (!runtime.store.secrets.has(TOKEN_SECRET)) {
    io.err(
      `lift serve --http refuses to start without a bearer token. Store one first: lift secrets generate ${TOKEN_SECRET} --out FILE (or lift secrets set ${TOKEN_SECRET}, or set LIFT_SECRET_SERVE_TOKEN). Clients then send Authorization: Bearer <token>.`,
    );
    return 1;
  }
  const token = runtime.store.secrets.get(TOKEN_SECRET);
  const weak = weakTokenProblem(token);
  if (weak) {
    io.err(`lift serve --http refuses to start: ${weak}\nhint: ${GENERATE_HINT}`);
    return 1;
  }
  const { serveHttp } = await import('../../serve/http.js');
  const { createConsole } = await import('../../console/server.js');
  const { FailedAttempts } = await import('../../store/failed-attempts.js');
  // One table for both doors: a guess at the console's sign-in counts at the bearer check too.
  const attempts = new FailedAttempts();
  const pages = createConsole(runtime, { token, attempts });
  const serving = await serveHttp(runtime, {
    ...debugEvents(runtime, io),
    ...calls,
    pages,
    port,
    host,
    token,
    attempts,
    origins,
    version: LIFT_VERSION,
  });
  if (!isLoopback(host))
    io.err(`Listening on ${host}: reachable from other machines; every request still needs the token.`);
  const registered = runtime.registry.list();
  const served = registered.filter((tool) => !calls.hidden?.(tool)).length;
  const hidden = registered.length - served;
  io.err(
    `Lift serves ${served} tools at ${serving.url} (Authorization: Bearer <the ${TOKEN_SECRET} secret>).${hidden > 0 ? ` ${hidden} more are hidden: lift tools list says why.` : ''}`,
  );
  io.err(`The console is at ${serving.url.replace(/\/mcp$/, '/console/')} (sign in with the same token).`);
  await untilAborted(stop);
  pages.close();
  await serving.close();
  return 0;
}

export const spec = defineCommand({
  name: 'serve',
  summary: 'the tools of every configured family over MCP, on stdio or Streamable HTTP',
  options: {
    stdio: { type: 'boolean', default: false, description: 'speak MCP on standard input and output' },
    http: {
      type: 'string',
      value: 'PORT',
      description: 'serve Streamable HTTP on this port (needs the serve_token secret)',
    },
    host: { type: 'string', default: '127.0.0.1', value: 'HOST', description: 'the address for --http' },
    queue: {
      type: 'boolean',
      default: false,
      description:
        "send each tool call to the shared job queue and answer with a worker's result (needs store.postgres)",
    },
    'allow-origin': {
      type: 'string',
      multiple: true,
      default: [],
      value: 'ORIGIN',
      description: 'a web origin allowed to call (repeatable); other origins get 403',
    },
    root: ROOT_OPTION,
    caps: CAPS_OPTION,
  },
  examples: [
    'lift serve --stdio --root /path/to/project',
    'lift serve --stdio --caps office,ui,desktop',
    'lift serve --http 8765 --allow-origin http://localhost:5173',
    'lift serve --stdio --queue',
  ],
  notes: `HTTP clients send Authorization: Bearer <token>; store one first: lift secrets generate ${TOKEN_SECRET} --out FILE (at least 128 bits).\nA family of tools is served when it is configured or needs no configuration, and is among the caps when --caps (or lift.config serve.caps) names some; lift tools list shows what is hidden and why.`,
});

/** lift serve --stdio | --http PORT [--host H]: Lift's tools as an MCP server. */
export const run: Command = async (args, io) => {
  const { values } = parse(args, spec);
  if (values.stdio === (values.http !== undefined)) throw new UsageError(USAGE);
  // A replay that meets an expired session waits for a person in the console (lift console).
  const { runtime, loadTools, config } = await openRuntimeThenTools(io, {
    attended: true,
    roots: values.root,
  });
  const stop = stopSignal();
  try {
    const served = new ServedTools(runtime, config, capsOf(values.caps, config));
    // A family only a tools module could name is checked once the tools are there, before serving.
    if (served.needsToolsToCheck()) {
      await loadTools();
      served.checkCaps(runtime.registry.list());
    }
    const loadThenWarn = async () => {
      await loadTools();
      for (const line of served.warnings(runtime.registry.list())) io.err(line);
    };
    const calls = {
      ...(await callsOf(runtime, values.queue)),
      elicitSignatures: config.elicitation.signature,
      hidden: (tool: AnyTool) => served.hiddenBecause(tool),
    };
    if (values.stdio) {
      const { serveStdio } = await import('../../serve/stdio.js');
      // stdout carries protocol messages only; a signal ends the server like a closed stdin.
      await serveStdio(runtime, {
        version: LIFT_VERSION,
        stop,
        loadTools: loadThenWarn,
        ...debugEvents(runtime, io),
        ...calls,
      });
      process.stdin.destroy();
      return 0;
    }
    const port = Number(values.http);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new UsageError(`--http needs a port number. ${USAGE}`);
    const origins = values['allow-origin'];
    const invalid = origins.find((origin) => !originOf(origin));
    if (invalid)
      throw new UsageError(`--allow-origin needs an origin such as http://localhost:5173, not '${invalid}'.`);
    await loadThenWarn();
    return await serveOverHttp(runtime, calls, io, port, values.host, origins, stop);
  } finally {
    await runtime.close();
  }
};
