import { contractCard } from '../../contract/card.js';
import { gateOf } from '../../contract/define-tool.js';
import { inputSchemaOf, outputSchemaOf } from '../../contract/json-schema.js';
import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { defineCommand } from '../spec.js';

export const spec = defineCommand({
  name: 'tools',
  summary: 'the registered tools and their contracts',
  options: { json: { type: 'boolean', default: false, description: 'print JSON instead of text' } },
  examples: ['lift tools list', 'lift tools show build_report'],
  subcommands: {
    list: {
      summary: 'the registered tools: rung, effect, gate, description',
      examples: ['lift tools list', 'lift tools list --json'],
      default: true,
    },
    show: {
      summary: "a tool's contract card (inputs, output, errors, side effect, timeout)",
      arguments: [{ name: 'name', description: 'the tool name, as lift tools list shows it' }],
      examples: ['lift tools show build_report', 'lift tools show build_report --json'],
    },
  },
});

/** lift tools list | lift tools show NAME */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const [action = 'list', name] = positionals;
  const runtime = await openRuntime(io);
  try {
    if (action === 'list') {
      const tools = runtime.registry.list();
      if (values.json) {
        printJson(
          io,
          tools.map((tool) => ({
            name: tool.name,
            rung: tool.rung,
            effect: tool.effect.class,
            gate: gateOf(tool),
            group: tool.group,
            description: tool.description,
          })),
        );
        return 0;
      }
      const width = Math.max(4, ...tools.map((tool) => tool.name.length));
      io.out(`${'tool'.padEnd(width)}  rung    effect        gate       description`);
      for (const tool of tools) {
        const description = tool.description.split('\n')[0] ?? '';
        io.out(
          `${tool.name.padEnd(width)}  ${tool.rung.padEnd(6)}  ${tool.effect.class.padEnd(12)}  ${gateOf(tool).padEnd(9)}  ${description.slice(0, 80)}`,
        );
      }
      io.out(`${tools.length} tools`);
      return 0;
    }
    if (action === 'show') {
      if (!name) throw new UsageError('Usage: lift tools show NAME');
      const tool = runtime.registry.get(name);
      if (!tool) {
        io.err(
          `No tool is named '${name}'. Available: ${runtime.registry
            .list()
            .map((t) => t.name)
            .join(', ')}`,
        );
        return 1;
      }
      if (values.json) {
        printJson(io, {
          name: tool.name,
          description: tool.description,
          rung: tool.rung,
          effect: tool.effect,
          gate: gateOf(tool),
          timeout: tool.timeout,
          input_schema: inputSchemaOf(tool),
          output_schema: outputSchemaOf(tool),
          card: contractCard(tool),
        });
      } else {
        io.out(contractCard(tool));
      }
      return 0;
    }
    throw new UsageError(`Unknown action '${action}'. Usage: lift tools list | lift tools show NAME`);
  } finally {
    await runtime.close();
  }
};
