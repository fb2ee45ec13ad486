import { toAnthropicTools } from '../../serve/to-anthropic-tools.js';
import { toMcpTools } from '../../serve/to-mcp-tools.js';
import { toOpenAiTools } from '../../serve/to-openai-tools.js';
import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';

const FORMATS = {
  openai: toOpenAiTools,
  anthropic: toAnthropicTools,
  mcp: (tools: Parameters<typeof toMcpTools>[0]) => ({ tools: toMcpTools(tools) }),
} as const;

/** lift schema --format openai|anthropic|mcp [--tool NAME ...]: the tool list as each ecosystem takes it. */
export const run: Command = async (args, io) => {
  const { values } = parse(
    args,
    {
      format: { type: 'string' },
      tool: { type: 'string', multiple: true },
      json: { type: 'boolean', default: true },
    },
    false,
  );
  const format = values.format;
  if (format !== 'openai' && format !== 'anthropic' && format !== 'mcp') {
    throw new UsageError('Usage: lift schema --format openai|anthropic|mcp [--tool NAME ...]');
  }
  const runtime = await openRuntime(io);
  try {
    const wanted = values.tool;
    const tools = runtime.registry.list().filter((tool) => !wanted || wanted.includes(tool.name));
    const unknown = (wanted ?? []).filter((name) => !runtime.registry.get(name));
    if (unknown.length > 0) throw new UsageError(`No tool named ${unknown.join(', ')}. See lift tools list.`);
    printJson(io, FORMATS[format](tools));
    return 0;
  } finally {
    await runtime.close();
  }
};
