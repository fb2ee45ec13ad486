import { toAnthropicTools } from '../../serve/to-anthropic-tools.js';
import { toMcpTools } from '../../serve/to-mcp-tools.js';
import { toOpenAiTools } from '../../serve/to-openai-tools.js';
import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { defineCommand } from '../spec.js';

const FORMATS = {
  openai: toOpenAiTools,
  anthropic: toAnthropicTools,
  mcp: (tools: Parameters<typeof toMcpTools>[0]) => ({ tools: toMcpTools(tools) }),
} as const;

export const spec = defineCommand({
  name: 'schema',
  summary: 'the tool list as each ecosystem takes it (OpenAI, Anthropic, MCP)',
  options: {
    format: { type: 'string', value: 'FORMAT', description: `one of ${Object.keys(FORMATS).join(', ')}` },
    tool: { type: 'string', multiple: true, value: 'NAME', description: 'only this tool (repeatable)' },
    json: { type: 'boolean', default: true, description: 'print JSON (always on)' },
  },
  examples: ['lift schema --format openai', 'lift schema --format mcp --tool build_report --tool build_deck'],
});

function isFormat(format: string | undefined): format is keyof typeof FORMATS {
  return format !== undefined && Object.hasOwn(FORMATS, format);
}

/** lift schema --format openai|anthropic|mcp [--tool NAME ...]: the tool list as each ecosystem takes it. */
export const run: Command = async (args, io) => {
  const { values } = parse(args, spec);
  const format = values.format;
  if (!isFormat(format)) {
    const allowed = Object.keys(FORMATS).join(', ');
    throw new UsageError(
      format === undefined
        ? `--format is required: one of ${allowed}.\nSee: lift schema --help`
        : `--format '${format}' is not a known format; use one of ${allowed}.\nSee: lift schema --help`,
    );
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
