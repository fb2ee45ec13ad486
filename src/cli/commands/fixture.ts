import { isLayout, isScenario, SCENARIOS, startBackoffice } from '../../fixtures/backoffice/index.js';
import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { defineCommand } from '../spec.js';

export const spec = defineCommand({
  name: 'fixture',
  summary: 'serve a legacy program Lift is tested against, until Ctrl-C',
  arguments: [{ name: 'program', description: 'backoffice (the back-office web app)' }],
  options: {
    port: { type: 'string', default: '0', value: 'N', description: 'the port (0: any free one)' },
    host: { type: 'string', default: '127.0.0.1', value: 'HOST', description: 'the address to listen on' },
    scenario: {
      type: 'string',
      default: 'normal',
      value: 'NAME',
      description: 'a failure to serve (--list-scenarios)',
    },
    layout: { type: 'string', default: 'normal', value: 'normal|reversed', description: 'the page layout' },
    'redirect-to': { type: 'string', value: 'URL', description: 'redirect every page to this URL' },
    'list-scenarios': { type: 'boolean', default: false, description: 'list the scenarios and exit' },
    json: { type: 'boolean', default: false, description: 'print the URL and sign-in as JSON' },
  },
  examples: ['lift fixture backoffice --port 8080', 'lift fixture backoffice --list-scenarios'],
});

const USAGE =
  'Usage: lift fixture backoffice [--port N] [--scenario NAME] [--layout normal|reversed] [--redirect-to URL] [--json]';

/** lift fixture backoffice: serves the legacy back office until interrupted. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
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
