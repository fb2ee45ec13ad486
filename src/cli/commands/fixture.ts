import { isLayout, isScenario, SCENARIOS, startBackoffice } from '../../fixtures/backoffice/index.js';
import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';

const USAGE =
  'Usage: lift fixture backoffice [--port N] [--scenario NAME] [--layout normal|reversed] [--redirect-to URL] [--json]';

/** lift fixture backoffice: serves the legacy back office until interrupted. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    scenario: { type: 'string', default: 'normal' },
    layout: { type: 'string', default: 'normal' },
    'redirect-to': { type: 'string' },
    'list-scenarios': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  });
  if (positionals[0] !== 'backoffice') throw new UsageError(USAGE);
  if (values['list-scenarios']) {
    for (const [name, summary] of Object.entries(SCENARIOS)) io.out(`${name.padEnd(22)} ${summary}`);
    return 0;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--port must be 0..65535. ${USAGE}`);
  if (!isScenario(values.scenario)) {
    throw new UsageError(
      `Unknown scenario '${values.scenario}'. Known: ${Object.keys(SCENARIOS).join(', ')}`,
    );
  }
  if (!isLayout(values.layout)) throw new UsageError(`--layout is normal or reversed. ${USAGE}`);
  const server = await startBackoffice({
    port,
    host: values.host,
    scenario: values.scenario,
    layout: values.layout,
    ...(values['redirect-to'] ? { redirectTo: values['redirect-to'] } : {}),
  });
  if (values.json)
    printJson(io, { url: server.url, user: server.user, scenario: values.scenario, layout: values.layout });
  else {
    io.out(
      `Back office at ${server.url} (scenario ${values.scenario}, layout ${values.layout}); sign in as ${server.user}.`,
    );
    io.out(
      `Request log: ${server.url}/__log   API description: ${server.url}/api/openapi.json   Ctrl-C stops.`,
    );
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  return 0;
};
