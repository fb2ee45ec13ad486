import { loadLintTargets, loadMcpTargets } from '../../lint/load.js';
import { formatLintReport } from '../../lint/report.js';
import { lintTools } from '../../lint/rules.js';
import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';

/**
 * lift lint FILE | lift lint --mcp "COMMAND LINE": findings on tool definitions.
 * Exit 1 when anything is fix-first or should-fix, so CI can gate on it.
 */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    json: { type: 'boolean', default: false },
    mcp: { type: 'string' },
  });
  const file = positionals[0];
  if (!file && !values.mcp)
    throw new UsageError('Usage: lift lint FILE | lift lint --mcp "COMMAND LINE" [--json]');
  const targets = values.mcp
    ? await loadMcpTargets(values.mcp, io.cwd)
    : await loadLintTargets(file!, io.cwd);
  const findings = lintTools(targets);
  if (values.json) printJson(io, findings);
  else io.out(formatLintReport(targets.length, findings));
  return findings.some((finding) => finding.severity !== 'consider') ? 1 : 0;
};
