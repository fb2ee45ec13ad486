import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ElicitResultSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { isPending } from '../contract/envelope.js';
import type { Runtime } from '../runtime/runtime.js';
import { askApproval, canElicit } from './ask-approval.js';
import { FileResources } from './file-resources.js';
import { ProtocolError } from './protocol-error.js';
import { toMcpTool } from './to-mcp-tools.js';
import { toCallToolResult } from './tool-result.js';

export interface LiftServer {
  server: Server;
  /** Stops following the registry; call when the connection closes. */
  dispose(): void;
}

export interface LiftServerOptions {
  /** Shared by every session of one `lift serve`, so a file named in one call stays readable. */
  resources?: FileResources;
  version?: string;
}

/**
 * One MCP server over a runtime: every registered tool, listed from its contract and
 * called through `invoke`. Tool failures are results (isError with the envelope); only
 * protocol mistakes such as an unknown tool name are JSON-RPC errors.
 */
export function createLiftServer(runtime: Runtime, options: LiftServerOptions = {}): LiftServer {
  const resources = options.resources ?? new FileResources();
  const server = new Server(
    { name: 'lift', version: options.version ?? '0.0.0' },
    {
      capabilities: { tools: { listChanged: true }, resources: {} },
      // Capabilities often arrive in a batch; the client hears about them once.
      debouncedNotificationMethods: ['notifications/tools/list_changed'],
      instructions:
        'Each tool is one typed operation with a contract. Results are envelopes: ok, summary, fields, checks, or error with code, retry and hint. A held call returns pending with an approval id; a person approves it.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: runtime.registry.list().map(toMcpTool) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: input = {} } = request.params;
    if (!runtime.registry.get(name)) {
      const names = runtime.registry.list().map((tool) => tool.name);
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Unknown tool '${name}'. Available tools: ${names.join(', ') || '(none)'}.`,
      );
    }
    let envelope = await runtime.invoke(name, input, { signal: extra.signal });
    if (isPending(envelope) && canElicit(server.getClientCapabilities())) {
      envelope = await askApproval(
        runtime,
        envelope,
        (params, signal) =>
          extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema, {
            signal,
            timeout: 10 * 60_000,
          }),
        extra.signal,
      );
    }
    resources.remember(envelope);
    return toCallToolResult(envelope);
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: resources.list() }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => resources.read(request.params.uri));

  const stopFollowing = runtime.registry.onChange(() => {
    if (!server.transport) return;
    server.sendToolListChanged().catch(() => {
      // The connection is closing; the next tools/list reads the registry anyway.
    });
  });
  return { server, dispose: stopFollowing };
}
