#!/usr/bin/env node
import { LIFT_VERSION } from '../contract/version.js';
import { HelpShown, UsageError, unknownCommand } from './args.js';
import { debugLog } from './debug-log.js';
import { topLevelHelp } from './help.js';
import type { CliIo, Command } from './io.js';
import { printJson, processIo } from './io.js';
import { asksForJson, jsonError } from './json-errors.js';
import type { CommandSpec } from './spec.js';

interface CommandModule {
  spec: CommandSpec;
  run: Command;
}

/**
 * Each command lives in its own file and is imported only when used, so `lift --version`
 * never pays for the browser driver or the model SDK. Its declaration (`spec`: flags,
 * subcommands, examples) gives its --help and the list below. One line per command.
 */
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  tools: () => import('./commands/tools.js'),
  call: () => import('./commands/call.js'),
  schema: () => import('./commands/schema.js'),
  serve: () => import('./commands/serve.js'),
  approvals: () => import('./commands/approvals.js'),
  approve: () => import('./commands/approve.js'),
  deny: () => import('./commands/deny.js'),
  exec: () => import('./commands/exec.js'),
  fixture: () => import('./commands/fixture.js'),
  run: () => import('./commands/run.js'),
  ledger: () => import('./commands/ledger.js'),
  runs: () => import('./commands/runs.js'),
  secrets: () => import('./commands/secrets.js'),
  lint: () => import('./commands/lint.js'),
  api: () => import('./commands/api.js'),
  ladder: () => import('./commands/ladder.js'),
  demo: () => import('./commands/demo.js'),
  discover: () => import('./commands/discover.js'),
  session: () => import('./commands/session.js'),
  capabilities: () => import('./commands/capabilities.js'),
  replay: () => import('./commands/replay.js'),
  doctor: () => import('./commands/doctor.js'),
  console: () => import('./commands/console.js'),
  worker: () => import('./commands/worker.js'),
};

/** The declarations of every command, for the list in lift --help. */
async function commandSpecs(): Promise<CommandSpec[]> {
  return (await Promise.all(Object.values(COMMANDS).map((load) => load()))).map((module) => module.spec);
}

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-v') {
    io.out(LIFT_VERSION);
    return 0;
  }
  if (name === 'help' && args[0]) return main([args[0], '--help'], io);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(topLevelHelp(await commandSpecs()));
    return name ? 0 : 2;
  }
  let spec: CommandSpec | undefined;
  try {
    const load = COMMANDS[name];
    if (!load) throw unknownCommand(name, Object.keys(COMMANDS));
    const debug = debugLog(io);
    const command = await load();
    spec = command.spec;
    debug(`command ${name} loaded`);
    const code = await command.run(args, io);
    debug(`command ${name} exits ${code}`);
    return code;
  } catch (error) {
    // A script that asked for JSON reads its refusal as JSON too, on standard output.
    const answer = asksForJson(args, spec) ? jsonError(error, name) : undefined;
    if (!answer) throw error;
    printJson(io, answer);
    return error instanceof UsageError ? 2 : 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof HelpShown) {
      process.stdout.write(error.text);
      process.exitCode = 0;
      return;
    }
    const usage = error instanceof Error && error.name === 'UsageError';
    process.stderr.write(`lift: ${error instanceof Error ? error.message : String(error)}\n`);
    // A LiftError's hint says what to do about it (a recipe's shapes, the command to run).
    const hint =
      error instanceof Error && error.name === 'LiftError' ? (error as { hint?: unknown }).hint : undefined;
    if (typeof hint === 'string') process.stderr.write(`hint: ${hint}\n`);
    process.exitCode = usage ? 2 : 1;
  },
);
