/** Lift's public API: named exports only. test/public-api.test.ts lists them. */
export { contractCard } from './contract/card.js';
export type { ToolContext, ToolEvent } from './contract/context.js';
export type { AnyTool, ToolDefinition, ToolErrorSpec, ToolResult } from './contract/define-tool.js';
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
export { lintTools } from './lint/rules.js';
export type { InvokeOptions } from './runtime/invoke.js';
export { Runtime, type RuntimeOptions } from './runtime/runtime.js';
