#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import type { Command } from './io.js';
import { processIo } from './io.js';

/**
 * Each command lives in its own file and is imported only when used, so `lift --version`
 * never pays for the browser driver or the model SDK.
 */
const COMMANDS: Record<string, { summary: string; load: () => Promise<{ run: Command }> }> = {
  tools: { summary: 'list tools, show a contract card', load: () => import('./commands/tools.js') },
  call: {
    summary: 'call a tool: lift call NAME --input JSON [--request-id ID]',
    load: () => import('./commands/call.js'),
  },
  schema: {
    summary: 'export tool schemas: --format openai|anthropic|mcp',
    load: () => import('./commands/schema.js'),
  },
  serve: {
    summary: 'serve the tools over MCP: lift serve --stdio | --http PORT [--host H]',
    load: () => import('./commands/serve.js'),
  },
  approvals: { summary: 'list held calls', load: () => import('./commands/approvals.js') },
  approve: {
    summary: 'run a held call once: lift approve ID [--phrase TEXT]',
    load: () => import('./commands/approve.js'),
  },
  deny: { summary: 'drop a held call: lift deny ID', load: () => import('./commands/deny.js') },
  exec: {
    summary: 'run a program that cannot hang: lift exec [--deadline S] -- PROGRAM ARGS',
    load: () => import('./commands/exec.js'),
  },
  fixture: {
    summary: 'serve a test fixture: lift fixture backoffice [--port N]',
    load: () => import('./commands/fixture.js'),
  },
  run: {
    summary: 'the agent: lift run "REQUEST" [--yes] [--max-turns N] (LIFT_MODEL=provider:model)',
    load: () => import('./commands/run.js'),
  },
  ledger: {
    summary: 'one row per agent task: model calls, tool calls, tokens, seconds, checks',
    load: () => import('./commands/ledger.js'),
  },
  runs: { summary: 'list runs, lift runs show ID', load: () => import('./commands/runs.js') },
  secrets: { summary: 'store or list secrets by name', load: () => import('./commands/secrets.js') },
  lint: {
    summary: 'lint tool definitions: lift lint FILE | --mcp "COMMAND"',
    load: () => import('./commands/lint.js'),
  },
  api: {
    summary: 'OpenAPI operations to tools: lift api import SPEC [--only ID]... | show FILE',
    load: () => import('./commands/api.js'),
  },
  ladder: {
    summary: 'rung per operation: lift ladder declare FILE | walk OP | check | step-down OP | report',
    load: () => import('./commands/ladder.js'),
  },
  console: {
    summary: 'the console in a browser: lift console [--port N]',
    load: () => import('./commands/console.js'),
  },
  demo: { summary: 'the end-to-end demonstration', load: () => import('./commands/demo.js') },
  discover: {
    summary:
      'explore a screen once: lift discover --url URL --policy FILE --task TEXT --input n=v --output n:type [--script FILE | --mcp]',
    load: () => import('./commands/discover.js'),
  },
  session: {
    summary: 'step-by-step discovery: lift session start|observe|act|handoff|complete|status',
    load: () => import('./commands/session.js'),
  },
  capabilities: {
    summary: 'lift capabilities list | show REF | diff REF1 REF2 | add FILE --effect CLASS | enable NAME',
    load: () => import('./commands/capabilities.js'),
  },
  replay: {
    summary: 'model-free replay: lift replay CAPABILITY --input JSON [--revision SHA256] [--layout-tolerant]',
    load: () => import('./commands/replay.js'),
  },
};

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(
    ([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`,
  );
  return `Usage: lift COMMAND [ARGS]   (add --json for machine output)\n\nCommands:\n${lines.join('\n')}\n`;
}

export async function main(argv: string[]): Promise<number> {
  const io = processIo();
  const [name, ...args] = argv;
  if (name === '--version' || name === '-v') {
    io.out(version());
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`lift: unknown command '${name}'.\n${usage()}`);
    return 2;
  }
  const { run } = await command.load();
  return run(args, io);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const usage = error instanceof Error && error.name === 'UsageError';
    process.stderr.write(`lift: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = usage ? 2 : 1;
  },
);
