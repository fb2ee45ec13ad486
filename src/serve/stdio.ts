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
    stdin?: NodeJS.ReadableStream;
    stdout?: NodeJS.WritableStream;
    stop?: AbortSignal;
  } = {},
): Promise<void> {
  const stdin = (options.stdin ?? process.stdin) as NodeJS.ReadStream;
  const stdout = (options.stdout ?? process.stdout) as NodeJS.WriteStream;
  const { server, dispose } = createLiftServer(runtime, options);
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  const endOfInput = () => {
    void server.close();
  };
  stdin.once('end', endOfInput);
  options.stop?.addEventListener('abort', endOfInput, { once: true });
  await server.connect(transport);
  try {
    await closed;
  } finally {
    stdin.off('end', endOfInput);
    options.stop?.removeEventListener('abort', endOfInput);
    dispose();
  }
}
