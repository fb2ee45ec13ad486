import { writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { contractCard } from '../../contract/card.js';
import { PRIVATE_FILE_MODE } from '../../contract/paths.js';
import { importOpenApi } from '../../rungs/api/import.js';
import { loadApiTools } from '../../rungs/api/loader.js';
import { readSpec } from '../../rungs/api/openapi.js';
import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';

const USAGE = `Usage:
  lift api import SPEC.(json|yaml) [--only OPERATION_ID]... [--out FILE] [--base-url URL] [--json]
  lift api show FILE [TOOL] [--base-url URL] [--json]`;

/**
 * lift api import: the chosen OpenAPI operations become one task-shaped tool each, written
 * as a tool file a person reviews and edits. lift api show: the contract cards of a tool file.
 */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    only: { type: 'string', multiple: true },
    out: { type: 'string' },
    'base-url': { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const [action, target, toolName] = positionals;
  if (!target || (action !== 'import' && action !== 'show')) throw new UsageError(USAGE);
  const file = resolve(io.cwd, target);

  if (action === 'show') {
    const tools = loadApiTools(file, values['base-url'] ? { baseUrl: values['base-url'] } : {});
    const chosen = toolName ? tools.filter((tool) => tool.name === toolName) : tools;
    if (chosen.length === 0) {
      io.err(
        `No tool is named '${toolName}' in ${target}. Tools: ${tools.map((tool) => tool.name).join(', ')}`,
      );
      return 1;
    }
    if (values.json)
      printJson(
        io,
        chosen.map((tool) => ({ name: tool.name, card: contractCard(tool) })),
      );
    else io.out(chosen.map((tool) => contractCard(tool)).join('\n\n'));
    return 0;
  }

  const out = resolve(io.cwd, values.out ?? target.replace(/\.(json|ya?ml)$/i, '.lift-api.json'));
  if (out === file) throw new UsageError('--out must differ from the OpenAPI description itself.');
  const report = importOpenApi(readSpec(file), {
    only: values.only ?? [],
    specPath: relative(dirname(out), file),
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
  });
  writeFileSync(out, `${JSON.stringify(report.file, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  // Loading proves the file turns into valid tools before anyone relies on it.
  const tools = loadApiTools(out);
  if (values.json) {
    printJson(io, {
      file: out,
      tools: tools.map((tool) => ({
        name: tool.name,
        effect: tool.effect.class,
        description: tool.description,
      })),
      skipped: report.skipped,
      auth: report.file.api.auth,
    });
    return 0;
  }
  const width = Math.max(4, ...tools.map((tool) => tool.name.length));
  for (const tool of tools)
    io.out(`${tool.name.padEnd(width)}  ${tool.effect.class.padEnd(12)}  ${tool.description.slice(0, 70)}`);
  for (const skip of report.skipped) io.out(`skipped ${skip.operationId}: ${skip.reason}`);
  const auth = report.file.api.auth;
  io.out(
    `${tools.length} tool(s) written to ${relative(io.cwd, out) || out}; review and edit it, then load it with loadApiTools().`,
  );
  if (auth.kind !== 'none')
    io.out(`The API wants a credential: store it with  lift secrets set ${auth.secret}`);
  return 0;
};
