import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Runtime } from '../runtime/runtime.js';
import { createLiftServer, type LiftServerOptions } from './mcp-server.js';

/**
 * Serves the runtime's tools over this process's stdin and stdout (nothing else may write
 * to stdout). Resolves when the client closes stdin, the connection ends, or `stop` aborts.
 */
export async function serveStdio(
  runtime: Runtime,
  options: LiftServerOptions & {
    /** Registers the runtime's tools: called once connected, so the handshake never waits for them. */
    loadTools?: () => Promise<void>;
    stdin?: NodeJS.ReadableStream;
    stdout?: NodeJS.WritableStream;
    stop?: AbortSignal;
  } = {},
): Promise<void> {
  const stdin = (options.stdin ?? process.stdin) as NodeJS.ReadStream;
  const stdout = (options.stdout ?? process.stdout) as NodeJS.WriteStream;
  let connected = () => {};
  const toolsLoaded = options.loadTools
    ? new Promise<void>((resolve) => {
        connected = resolve;
      }).then(options.loadTools)
    : options.toolsLoaded;
  const { server, dispose } = createLiftServer(runtime, {
    ...options,
    ...(toolsLoaded ? { toolsLoaded } : {}),
  });
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  const endOfInput = () => {
    void server.close();
  };
  stdin.once('end', endOfInput);
  options.stop?.addEventListener('abort', endOfInput, { once: true });
  // Tools that cannot load end the server: the failure is the command's, after the handshake.
  toolsLoaded?.catch(endOfInput);
  await server.connect(transport);
  connected();
  try {
    await closed;
    await toolsLoaded;
  } finally {
    stdin.off('end', endOfInput);
    options.stop?.removeEventListener('abort', endOfInput);
    dispose();
  }
}
