import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ElicitResultSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  type LoggingLevel,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from '../contract/define-tool.js';
import { type Envelope, isPending } from '../contract/envelope.js';
import type { InvokeOptions } from '../runtime/call.js';
import { byToolName } from '../runtime/registry.js';
import type { Runtime } from '../runtime/runtime.js';
import type { RunEvent } from '../store/runs.js';
import { ApprovalResources } from './approval-resources.js';
import { approvalStatusTool } from './approval-status.js';
import { askApproval, canElicit, elicitationMayAnswer } from './ask-approval.js';
import { CallNotices } from './call-notices.js';
import { ClientRoots, LIST_ROOTS_MS } from './client-roots.js';
import { envelopeResource, readEnvelopeResource } from './envelope-resource.js';
import { FileResources } from './file-resources.js';
import { ProtocolError } from './protocol-error.js';
import { type McpTool, toMcpTool } from './to-mcp-tools.js';
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
  /** Hears every event of every call, unscrubbed (LIFT_LOG=debug prints them on stderr). */
  onEvent?: (tool: string, event: RunEvent) => void;
  /**
   * Runs a tool call in place of `runtime.invoke` (lift serve --queue sends it to the
   * workers). The server's own tools (approval_status) still run here.
   */
  invoke?: (tool: AnyTool, input: unknown, options: InvokeOptions) => Promise<Envelope>;
  /**
   * Settles once the runtime's tools are registered (lift serve answers the handshake while
   * they load): tools/list and tools/call wait for it, so a client never sees a partial list.
   */
  toolsLoaded?: Promise<void>;
  /**
   * Tools whose signature gates a client may answer by elicitation (lift.config
   * `elicitation.signature`, `"*"` for all). Review gates it may always answer; by default no
   * signature: that needs the console or lift approve.
   */
  elicitSignatures?: readonly string[];
  /**
   * Why a registered tool is not served (its family is not configured, or not among the
   * operator's caps), with what enables it; undefined for a tool the server lists. A hidden
   * tool is neither listed nor callable here (lift call still names it). Default: none hidden.
   */
  hidden?: (tool: AnyTool) => HiddenTool | undefined;
}

/** Why a tool is not served, and what the operator does to serve it. */
export interface HiddenTool {
  reason: string;
  enable: string;
}

/** Tools the server adds to the registry's: what a client needs to follow its own calls. */
export function serverTools(runtime: Runtime): AnyTool[] {
  return [approvalStatusTool((id) => runtime.store.approvals.get(id))];
}

const INSTRUCTIONS =
  'Each tool is one typed operation with a contract. Results are envelopes: ok, summary, fields, checks, or error with code, retry and hint (each tool’s output schema gives its fields; the resource lift://schema/envelope describes the rest). A call held for a person is not ok: it comes back as an isError result (error.code APPROVAL_PENDING) that starts with PENDING APPROVAL, NOT RUN and carries pending.approval_id: do not call it again; a person approves it, and approval_status (or the resource lift://approvals/ID) tells its state and, once it ran, its result.';

/**
 * One MCP server over a runtime: every registered tool, listed from its contract and
 * called through `invoke`. Tool failures are results (isError with the envelope); only
 * protocol mistakes such as an unknown tool name are JSON-RPC errors. While a call runs,
 * the client hears its run-log events as log messages (at the level it set) and as
 * progress (when it sent a progress token).
 */
export function createLiftServer(runtime: Runtime, options: LiftServerOptions = {}): LiftServer {
  const files = options.resources ?? new FileResources();
  const approvals = new ApprovalResources(runtime.store.approvals);
  const own = new Map(serverTools(runtime).map((tool) => [tool.name, tool]));
  const scrub = <T>(value: T): T => runtime.store.secrets.scrubValue(value);
  /** Undefined until the client sets one (logging/setLevel): see CallNotices.end. */
  let logLevel: LoggingLevel | undefined;
  const server = new Server(
    { name: 'lift', version: options.version ?? '0.0.0' },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, logging: {} },
      // Capabilities often arrive in a batch; the client hears about them once.
      debouncedNotificationMethods: ['notifications/tools/list_changed'],
      instructions: INSTRUCTIONS,
    },
  );
  const hidden = options.hidden ?? (() => undefined);
  const toolNamed = (name: string) => own.get(name) ?? runtime.registry.get(name);
  const clientRoots = new ClientRoots(server, runtime.paths.userHome);
  const toolsLoaded = options.toolsLoaded ?? Promise.resolve();

  // The list is built once per change of the registry and answered from memory after that.
  let listed: { tools: McpTool[] } | undefined;
  const forgetList = runtime.registry.onChange(() => {
    listed = undefined;
  });
  const servedTools = (): AnyTool[] => [
    ...runtime.registry.list().filter((tool) => !own.has(tool.name) && !hidden(tool)),
    ...own.values(),
  ];

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await toolsLoaded;
    listed ??= { tools: servedTools().sort(byToolName).map(toMcpTool) };
    return listed;
  });

  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    logLevel = request.params.level;
    return {};
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: input = {} } = request.params;
    await toolsLoaded;
    const tool = toolNamed(name);
    const why = tool && !own.has(name) ? hidden(tool) : undefined;
    if (why) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Tool '${name}' is not served here: ${why.reason}. The operator can serve it: ${why.enable}.`,
      );
    }
    if (!tool) {
      const names = servedTools().map((known) => known.name);
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Unknown tool '${name}'. Available tools: ${names.join(', ') || '(none)'}.`,
      );
    }
    const notices = new CallNotices({
      tool: name,
      send: extra.sendNotification,
      scrub,
      progressToken: request.params._meta?.progressToken,
      level: logLevel,
    });
    const watch = options.onEvent;
    const hear = watch
      ? (event: RunEvent, runId: string) => {
          if (notices.listening) notices.hear(event, runId);
          watch(name, event);
        }
      : notices.listening
        ? notices.hear
        : undefined;
    const invoke = (!own.has(name) && options.invoke) || runtime.invoke.bind(runtime);
    // The folders this client opened (its roots) are the ones its calls' paths may reach.
    const roots = await clientRoots.forCall(() =>
      extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema, { timeout: LIST_ROOTS_MS }),
    );
    let envelope: Envelope = await invoke(tool, input, {
      signal: extra.signal,
      ...(hear ? { onEvent: hear } : {}),
      ...(roots ? { roots } : {}),
    });
    if (
      isPending(envelope) &&
      canElicit(server.getClientCapabilities()) &&
      elicitationMayAnswer(envelope, options.elicitSignatures ?? [])
    ) {
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
    notices.end(envelope);
    await notices.sent();
    files.remember(envelope);
    return toCallToolResult(envelope);
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [envelopeResource, ...files.list(), ...scrub(await approvals.list())],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [ApprovalResources.template],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const envelope = readEnvelopeResource(request.params.uri);
    if (envelope) return envelope;
    const approval = await approvals.read(request.params.uri);
    return approval ? scrub(approval) : files.read(request.params.uri);
  });

  // The first load is no change a client saw (tools/list waited for it): follow the registry after it.
  let following = true;
  let stopFollowing = () => {
    following = false;
  };
  const follow = () => {
    if (!following) return;
    stopFollowing = runtime.registry.onChange(() => {
      if (!server.transport) return;
      server.sendToolListChanged().catch(() => {
        // The connection is closing; the next tools/list reads the registry anyway.
      });
    });
  };
  if (options.toolsLoaded) options.toolsLoaded.then(follow, () => {});
  else follow();
  return {
    server,
    dispose: () => {
      stopFollowing();
      forgetList();
    },
  };
}
