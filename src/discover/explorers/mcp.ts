import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { CapabilityStore } from '../../capability/store.js';
import { LIFT_VERSION } from '../../contract/version.js';
import type { UiPolicy } from '../../rungs/ui/policy.js';
import type { Runtime } from '../../runtime/runtime.js';
import {
  EXPLORER_TOOL_NAMES,
  EXPLORER_TOOLS,
  explorerAnnotations,
  explorerToolJsonSchema,
  isExplorerTool,
} from '../explorer-tools.js';
import { openDiscovery } from '../run.js';
import type { DiscoverySession, DiscoveryTask } from '../session.js';
import { type BrowserChoice, openExplorationPage } from '../session-page.js';
import type { DiscoverySignIn } from '../ui-driver.js';

/**
 * The MCP explorer: the same four tools, budgets and events, served to any MCP-capable
 * agent. A tool outside the four is a protocol error; tool failures are results.
 */
export function discoveryServer(session: DiscoverySession, task: DiscoveryTask): Server {
  const server = new Server(
    { name: 'lift-discover', version: LIFT_VERSION },
    {
      capabilities: { tools: {} },
      instructions: `Discovery session. Task: ${task.intent}. Inputs (bound, referred to as {"input":"NAME"}): ${task.inputs.map((input) => input.name).join(', ')}. Outputs to read: ${task.outputs.map((output) => `${output.name}:${output.type}`).join(', ')}. Observe first; call complete when every output is read.`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: EXPLORER_TOOL_NAMES.map((name) => ({
      name,
      title: EXPLORER_TOOLS[name].title,
      description: EXPLORER_TOOLS[name].description,
      inputSchema: explorerToolJsonSchema(name) as { type: 'object'; [key: string]: unknown },
      annotations: explorerAnnotations(EXPLORER_TOOLS[name]),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    if (!isExplorerTool(name)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool '${name}'. Available tools: ${EXPLORER_TOOL_NAMES.join(', ')}.`,
      );
    }
    const reply = await session.call(name, args);
    return {
      content: [{ type: 'text', text: JSON.stringify(reply) }],
      isError: !reply.ok,
      structuredContent: reply,
    };
  });
  return server;
}

export interface McpDiscoveryOptions {
  runtime: Runtime;
  task: DiscoveryTask;
  policy: UiPolicy;
  hidden: string[];
  signIn: DiscoverySignIn | undefined;
  browser?: BrowserChoice;
  /** Defaults to this process's stdin and stdout. */
  transport?: Transport;
}

/** Opens a browser page, starts the session and serves it until the client disconnects. */
export async function serveDiscoveryOverMcp(options: McpDiscoveryOptions): Promise<DiscoverySession> {
  const { runtime, task } = options;
  const lease = await openExplorationPage(runtime, task.startUrl, options.policy, options.browser);
  try {
    const { session, runId } = await openDiscovery({
      store: runtime.store,
      capabilities: new CapabilityStore(runtime.store.capabilities),
      page: lease.page,
      policy: options.policy,
      task,
      hidden: options.hidden,
      ...(options.signIn ? { signIn: options.signIn } : {}),
      saveProfile: lease.save,
      explorer: 'mcp',
      liftVersion: LIFT_VERSION,
    });
    const server = discoveryServer(session, task);
    const transport = options.transport ?? new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      server.onclose = () => resolve();
    });
    if (!options.transport) process.stdin.once('end', () => void server.close());
    await server.connect(transport);
    await closed;
    if (session.outcome === 'running') session.abandon('the MCP client disconnected before complete');
    runtime.store.runs.end(runId, session.outcome === 'completed');
    return session;
  } finally {
    await lease.release();
  }
}
