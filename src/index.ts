/** Lift's public API: named exports only. test/public-api.test.ts lists them. */

export { createRunChain } from './agent/chain.js';
// The agent.
export type { AgentOptions, AgentResult } from './agent/loop.js';
export { Shortlist } from './agent/shortlist.js';
export { TaskLedger } from './agent/task-ledger.js';
// Lifted programs: tool factories for other deployments than the built-in defaults.
export { gitTools, inventoryTools, postgresTools, serviceTools } from './apps/cli-tools.js';
export { hledgerTools } from './apps/hledger/tools.js';
export { type ChatSettings, chatTools, type EmailSettings, emailTools } from './apps/messaging-tools.js';
export { ColdOffice, WarmOffice } from './apps/office/worker.js';
export { payrollTools } from './apps/payroll/tools.js';
// Discovery, capabilities and model-free replay.
export {
  type Capability,
  CapabilitySchema,
  revisionOf,
  validateCapability,
} from './capability/capability.js';
export { CapabilityStore } from './capability/store.js';
// The contract: one declaration per tool, its envelope, its error codes.
export { contractCard } from './contract/card.js';
export type { ApprovalRecord, ToolContext, ToolEvent } from './contract/context.js';
export type { AnyTool, Preview, ToolDefinition, ToolErrorSpec, ToolResult } from './contract/define-tool.js';
export { defineTool, gateOf } from './contract/define-tool.js';
export type { Effect, EffectClass, Gate, Rung } from './contract/effects.js';
export { DEFAULT_GATE, EFFECT_CLASSES, EFFECTS, GATES, RUNGS } from './contract/effects.js';
export type {
  Check,
  Envelope,
  ErrorEnvelope,
  PendingEnvelope,
  SuccessEnvelope,
} from './contract/envelope.js';
export { describeEnvelope, isError, isPending, isSuccess } from './contract/envelope.js';
export type { ErrorCode, Outcome, RetryAdvice } from './contract/errors.js';
export { ERROR_CODES, isLiftError, LiftError } from './contract/errors.js';
export { inputSchemaOf, outputSchemaOf } from './contract/json-schema.js';
export type { PathScope } from './contract/paths.js';
export { RequestIdSchema } from './contract/request-id.js';
export { LIFT_VERSION } from './contract/version.js';
export { compileCapability } from './discover/compile.js';
// The per-operation ladder.
export { Ladder } from './ladder/ladder.js';
export { formatReport, ladderReport } from './ladder/report.js';
export { lintTools } from './lint/rules.js';
// The model client (the agent and the model explorer use it).
export { ModelClient } from './model/model-client.js';
export { type ModelSpec, parseModelSpec } from './model/model-spec.js';
// Serving, the model, discovery, replay and the agent: loaded on first use (startup stays light).
export {
  addCapabilityTools,
  createLanguageModel,
  createLiftServer,
  replayCapability,
  runAgent,
  runDiscovery,
  serveHttp,
  serveStdio,
  toAiSdkTools,
} from './on-first-use.js';
// Rung 1, API.
export { importOpenApi } from './rungs/api/import.js';
export { loadApiTools, toolsFromApiFile } from './rungs/api/loader.js';
export { readSpec } from './rungs/api/openapi.js';
export type { ApiToolFile } from './rungs/api/tool-file.js';
// Rung 2, command line.
export { quietEnvironment } from './rungs/cli/environment.js';
export { type OutputParser, parseOutput } from './rungs/cli/parsers.js';
export { runWrapped } from './rungs/cli/run-wrapped.js';
export type { WrappedCall, WrappedResult } from './rungs/cli/wrapped-call.js';
// Rung 3, files.
export { readExport, withLock, writeFileAtomic } from './rungs/file/index.js';
// Rung 5, structured UI.
export {
  BrowserPool,
  loadPolicy,
  parsePolicy,
  resolveTarget,
  TargetSchema,
  UiActionSchema,
  UiSession,
} from './rungs/ui/index.js';
// The runtime: invoke under the contract, the store, approvals.
export type { InvokeOptions } from './runtime/invoke.js';
export { Runtime, type RuntimeOptions } from './runtime/runtime.js';
export type { HttpServeOptions, HttpServing } from './serve/http.js';
// Serving: MCP and function-calling exports.
export type { LiftServer, LiftServerOptions } from './serve/mcp-server.js';
export { fromOpenAiArguments, toOpenAiArguments } from './serve/openai-arguments.js';
export type { AiSdkToolsOptions } from './serve/to-ai-sdk-tools.js';
export { toAnthropicTools } from './serve/to-anthropic-tools.js';
export { toMcpTools } from './serve/to-mcp-tools.js';
export { toOpenAiTools } from './serve/to-openai-tools.js';
