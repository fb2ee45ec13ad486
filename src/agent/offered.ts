import { NoSuchToolError, type ToolSet } from 'ai';
import { RUN_CHAIN } from './chain.js';

/** The tool names a call would run: the tool itself, and for run_chain every step's tool. */
function namesIn(call: { name: string; input: unknown }): string[] {
  if (call.name !== RUN_CHAIN) return [call.name];
  const steps = (call.input as { steps?: unknown } | undefined)?.steps;
  const tools = Array.isArray(steps)
    ? steps
        .map((step) => (step as { tool?: unknown } | null)?.tool)
        .filter((tool) => typeof tool === 'string')
    : [];
  return [call.name, ...tools];
}

/**
 * Why a call the model wrote may not run: it names a tool (or a chain step names one) that this
 * model call did not offer. The model reads the reason in the AI SDK's words, with the list it had;
 * undefined when every tool it names was on offer.
 */
export function unofferedTool(
  call: { name: string; input: unknown },
  offered: ToolSet,
  exists: (name: string) => boolean,
): string | undefined {
  // A chain step naming no tool at all is the chain's own BAD_INPUT, which says so before anything runs.
  const names = namesIn(call).filter((name, index) => index === 0 || exists(name));
  const missing = names.find((name) => !Object.hasOwn(offered, name));
  if (missing === undefined) return undefined;
  const { message } = new NoSuchToolError({ toolName: missing, availableTools: Object.keys(offered) });
  return call.name === missing ? message : `run_chain step: ${message}`;
}
