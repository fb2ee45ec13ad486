/**
 * The public entry points whose layers are heavy to load: serving (the MCP SDK, its JSON Schema
 * validator, the HTTP server), the model side (the AI SDK and its providers), discovery, replay
 * and the agent. Importing Lift does not load them; each loads on its first call, so a program
 * that only defines and invokes tools starts in the time of its own code (`npm run bench --
 * startup`). Each is async, with the signature of the function it loads.
 */
type Stdio = typeof import('./serve/stdio.js');
type Http = typeof import('./serve/http.js');
type McpServer = typeof import('./serve/mcp-server.js');
type AiSdk = typeof import('./serve/to-ai-sdk-tools.js');
type Provider = typeof import('./model/model-provider.js');
type Agent = typeof import('./agent/loop.js');
type Discovery = typeof import('./discover/run.js');
type Engine = typeof import('./replay/engine.js');
type Load = typeof import('./replay/load.js');

/** Serves the runtime's tools over MCP on stdio until the input closes or `stop` aborts. */
export async function serveStdio(...args: Parameters<Stdio['serveStdio']>): ReturnType<Stdio['serveStdio']> {
  return (await import('./serve/stdio.js')).serveStdio(...args);
}

/** Serves the runtime's tools over MCP Streamable HTTP, bearer-protected. */
export async function serveHttp(...args: Parameters<Http['serveHttp']>): ReturnType<Http['serveHttp']> {
  return (await import('./serve/http.js')).serveHttp(...args);
}

/** The MCP server of a runtime, to connect to a transport of your own. */
export async function createLiftServer(
  ...args: Parameters<McpServer['createLiftServer']>
): Promise<ReturnType<McpServer['createLiftServer']>> {
  return (await import('./serve/mcp-server.js')).createLiftServer(...args);
}

/** The runtime's tools as AI SDK tools; `execute` goes through `invoke` (gate, ledger and all). */
export async function toAiSdkTools(
  ...args: Parameters<AiSdk['toAiSdkTools']>
): Promise<ReturnType<AiSdk['toAiSdkTools']>> {
  return (await import('./serve/to-ai-sdk-tools.js')).toAiSdkTools(...args);
}

/** The AI SDK language model for a `provider:model` spec. */
export async function createLanguageModel(
  ...args: Parameters<Provider['createLanguageModel']>
): Promise<ReturnType<Provider['createLanguageModel']>> {
  return (await import('./model/model-provider.js')).createLanguageModel(...args);
}

export async function runAgent(...args: Parameters<Agent['runAgent']>): ReturnType<Agent['runAgent']> {
  return (await import('./agent/loop.js')).runAgent(...args);
}

export async function runDiscovery(
  ...args: Parameters<Discovery['runDiscovery']>
): ReturnType<Discovery['runDiscovery']> {
  return (await import('./discover/run.js')).runDiscovery(...args);
}

export async function replayCapability(
  ...args: Parameters<Engine['replayCapability']>
): ReturnType<Engine['replayCapability']> {
  return (await import('./replay/engine.js')).replayCapability(...args);
}

/** Registers the stored capabilities as tools of the runtime. */
export async function addCapabilityTools(
  ...args: Parameters<Load['addCapabilityTools']>
): ReturnType<Load['addCapabilityTools']> {
  return (await import('./replay/load.js')).addCapabilityTools(...args);
}
