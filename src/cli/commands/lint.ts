import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadLintTargets, loadMcpTargets } from '../../lint/load.js';
import { formatLintReport } from '../../lint/report.js';
import { lintTools } from '../../lint/rules.js';
import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { defineCommand } from '../spec.js';

export const spec = defineCommand({
  name: 'lint',
  summary: 'findings on tool definitions: Lift modules, OpenAI/Anthropic/MCP lists, a live MCP server',
  arguments: [
    { name: 'file', description: 'a tool module (.ts/.js) or a JSON/YAML tool list', optional: true },
  ],
  options: {
    mcp: {
      type: 'string',
      value: 'COMMAND',
      description: 'lint the tools of an MCP server started by this command line',
    },
    json: { type: 'boolean', default: false, description: 'print the findings as JSON' },
  },
  examples: ['lift lint ./my-tools.ts', 'lift lint --mcp "npx @playwright/mcp --headless"'],
  notes: 'Exit status: 1 when anything is fix-first or should-fix, so CI can gate on it.',
});

/**
 * lift lint FILE | lift lint --mcp "COMMAND LINE": findings on tool definitions.
 * Exit 1 when anything is fix-first or should-fix, so CI can gate on it.
 */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const file = positionals[0];
  if (!file && !values.mcp)
    throw new UsageError('Usage: lift lint FILE | lift lint --mcp "COMMAND LINE" [--json]');
  if (file && !values.mcp && !existsSync(resolve(io.cwd, file)))
    throw new UsageError(
      `${file}: no such file in ${io.cwd}. Give a tool module (.ts/.js) or a JSON/YAML tool list.`,
    );
  const targets = values.mcp
    ? await loadMcpTargets(values.mcp, io.cwd)
    : await loadLintTargets(file!, io.cwd);
  const findings = lintTools(targets);
  if (values.json) printJson(io, findings);
  else io.out(formatLintReport(targets.length, findings));
  return findings.some((finding) => finding.severity !== 'consider') ? 1 : 0;
};
