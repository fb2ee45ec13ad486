import { resolve } from 'node:path';
import { loadConfig } from '../../config/load.js';
import { parse } from '../args.js';
import type { Check } from '../doctor/check.js';
import { nodeCheck, programChecks } from '../doctor/programs.js';
import { capabilityChecks, homeCheck, modelChecks, serveTokenCheck } from '../doctor/state.js';
import type { CliIo, Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { defineCommand } from '../spec.js';

export const spec = defineCommand({
  name: 'doctor',
  summary:
    'check what Lift needs here: Node, the programs the tools drive, LIFT_HOME, the model, the serve token, capabilities',
  options: { json: { type: 'boolean', default: false, description: 'print JSON instead of text' } },
  examples: ['lift doctor', 'lift doctor --json'],
  notes: 'Exit status: 0 when nothing failed (warnings name parts of Lift that will not work), 1 otherwise.',
});

async function checks(io: CliIo): Promise<Check[]> {
  const config = await loadConfig(io.cwd, io.env);
  const home = homeCheck(resolve(io.cwd, config.home ?? '.lift'));
  const found = [nodeCheck(), ...programChecks(io.env), home];
  if (home.status === 'fail') return found;
  const runtime = await openRuntime(io);
  try {
    return [
      ...found,
      ...(await modelChecks(io.env, runtime)),
      serveTokenCheck(runtime),
      ...(await capabilityChecks(runtime)),
    ];
  } finally {
    await runtime.close();
  }
}

const MARK: Record<Check['status'], string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

/** lift doctor: one line per check, and under each problem the command that fixes it. */
export const run: Command = async (args, io) => {
  const { values } = parse(args, spec);
  const found = await checks(io);
  const ok = found.every((check) => check.status !== 'fail');
  if (values.json) {
    printJson(io, { ok, checks: found });
    return ok ? 0 : 1;
  }
  const width = Math.max(...found.map((check) => check.name.length));
  for (const check of found) {
    io.out(`${MARK[check.status]}  ${check.name.padEnd(width)}  ${check.detail}`);
    if (check.fix && check.status !== 'ok') io.out(`      ${' '.repeat(width)}  fix: ${check.fix}`);
  }
  const failed = found.filter((check) => check.status === 'fail').length;
  const warned = found.filter((check) => check.status === 'warn').length;
  io.out(`\n${failed} failed, ${warned} warnings, ${found.length - failed - warned} ok.`);
  return ok ? 0 : 1;
};
