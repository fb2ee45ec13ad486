import { contractCard } from '../../contract/card.js';
import type { AnyTool } from '../../contract/define-tool.js';
import { gateOf } from '../../contract/define-tool.js';
import { inputSchemaOf, outputSchemaOf } from '../../contract/json-schema.js';
import { familyOf } from '../../families.js';
import { parse, UsageError } from '../args.js';
import type { CliIo, Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntimeThenTools } from '../open-runtime.js';
import { CAPS_OPTION, capsOf, type HiddenFamily, ServedTools } from '../served-tools.js';
import { defineCommand } from '../spec.js';

export const spec = defineCommand({
  name: 'tools',
  summary: 'the registered tools and their contracts',
  options: {
    json: { type: 'boolean', default: false, description: 'print JSON instead of text' },
    caps: { ...CAPS_OPTION, description: 'list what lift serve --caps FAMILY,... would serve' },
  },
  examples: ['lift tools list', 'lift tools show build_report'],
  subcommands: {
    list: {
      summary:
        'the tools lift serve lists (rung, effect, gate, description), then the families it hides, why, and how to enable them',
      examples: ['lift tools list', 'lift tools list --json', 'lift tools list --caps office,ui'],
      default: true,
    },
    show: {
      summary: "a tool's contract card (inputs, output, errors, side effect, timeout)",
      arguments: [{ name: 'name', description: 'the tool name, as lift tools list shows it' }],
      options: ['json'],
      examples: ['lift tools show build_report', 'lift tools show build_report --json'],
    },
  },
  notes:
    'lift call runs any registered tool, hidden or not: a tool of a family that is not configured answers NOT_CONFIGURED with the setting it needs.',
});

function printTable(io: CliIo, tools: readonly AnyTool[]): void {
  const width = Math.max(4, ...tools.map((tool) => tool.name.length));
  io.out(`${'tool'.padEnd(width)}  rung    effect        gate       description`);
  for (const tool of tools) {
    const description = tool.description.split('\n')[0] ?? '';
    io.out(
      `${tool.name.padEnd(width)}  ${tool.rung.padEnd(6)}  ${tool.effect.class.padEnd(12)}  ${gateOf(tool).padEnd(9)}  ${description.slice(0, 80)}`,
    );
  }
  io.out(`${tools.length} tools`);
}

/** Each hidden family: its tools, why lift serve leaves them out, and what serves them. */
function printHidden(io: CliIo, hidden: readonly HiddenFamily[]): void {
  const count = hidden.reduce((sum, family) => sum + family.tools.length, 0);
  io.out(`\nhidden from lift serve: ${count} tools`);
  const width = Math.max(...hidden.map((family) => family.family.length));
  const indent = ' '.repeat(width + 4);
  for (const family of hidden) {
    io.out(`  ${family.family.padEnd(width)}  ${family.tools.join(', ')}`);
    io.out(`${indent}why: ${family.reason}`);
    io.out(`${indent}enable: ${family.enable}`);
  }
}

/** lift tools list | lift tools show NAME */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const [action = 'list', name] = positionals;
  const { runtime, loadTools, config } = await openRuntimeThenTools(io);
  try {
    await loadTools();
    const registered = runtime.registry.list();
    const served = new ServedTools(runtime, config, capsOf(values.caps, config));
    served.checkCaps(registered);
    if (action === 'list') {
      const tools = served.shown(registered);
      const hidden = served.hidden(registered);
      if (values.json) {
        printJson(io, {
          tools: tools.map((tool) => ({
            name: tool.name,
            rung: tool.rung,
            effect: tool.effect.class,
            gate: gateOf(tool),
            group: tool.group,
            family: familyOf(tool),
            description: tool.description,
          })),
          hidden,
        });
        return 0;
      }
      printTable(io, tools);
      if (hidden.length > 0) printHidden(io, hidden);
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
      const hidden = served.hiddenBecause(tool);
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
          ...(hidden ? { hidden } : {}),
        });
      } else {
        io.out(contractCard(tool));
        if (hidden) io.out(`\nHidden from lift serve: ${hidden.reason}.\nTo serve it: ${hidden.enable}.`);
      }
      return 0;
    }
    throw new UsageError(`Unknown action '${action}'. Usage: lift tools list | lift tools show NAME`);
  } finally {
    await runtime.close();
  }
};
