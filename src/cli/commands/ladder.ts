import { resolve } from 'node:path';
import { backofficeDeclaration } from '../../apps/backoffice/tools.js';
import { loadConfig } from '../../config/load.js';
import { rungNumber } from '../../contract/effects.js';
import { Ladder } from '../../ladder/ladder.js';
import { formatReport, ladderReport } from '../../ladder/report.js';
import type { Walk } from '../../ladder/store.js';
import { parse, UsageError } from '../args.js';
import type { CliIo, Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { defineCommand } from '../spec.js';

const USAGE = `Usage:
  lift ladder declare FILE                 store the operations of a declaration file (YAML or JSON)
  lift ladder declare --app backoffice     store the operations an enabled app declares
  lift ladder walk OPERATION | --due       walk from the top and record the evidence (--due: schedules and changed doors)
  lift ladder check [OPERATION]            propose step-downs from repeated failures in the run log
  lift ladder step-down OPERATION          accept a proposal: walk again below the failing door
  lift ladder schedule OPERATION --every N(h|d)   re-walk on a schedule (run lift ladder walk --due from cron)
  lift ladder report [--json]              every operation: rung, why higher rungs were ruled out, failures, flags`;

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

function describeWalk(walk: Walk): string {
  const rung = walk.rung ? `rung ${rungNumber(walk.rung)} (${walk.rung})` : 'no rung: a person keeps it';
  const lines = [`${walk.operation}: ${rung}, ${walk.direction} (${walk.trigger})`];
  for (const result of walk.results) {
    const tests = Object.entries(result.tests).map(
      ([test, outcome]) => `${test} ${outcome.passed ? 'pass' : 'FAIL'}: ${outcome.evidence}`,
    );
    lines.push(`  ${rungNumber(result.rung)} ${result.label}: ${tests.join('; ')}`);
  }
  return lines.join('\n');
}

/** The operations an enabled app declares for the ladder, and the file that enabled it. */
async function appDeclaration(io: CliIo, app: string): Promise<[unknown, string]> {
  if (app !== 'backoffice')
    throw new UsageError(`No app named '${app}' declares operations. Known: backoffice.`);
  const config = await loadConfig(io.cwd, io.env);
  if (config.settings.backoffice === undefined || !config.file) {
    throw new UsageError(
      'The backoffice app is not enabled: add "settings": { "backoffice": { "url": "http://127.0.0.1:PORT" } } to lift.config.json.',
    );
  }
  const declaration = backofficeDeclaration(config.settings.backoffice, (spec) => resolve(config.root, spec));
  return [declaration, config.file];
}

const OPERATION = { name: 'operation', description: 'a declared operation (lift ladder report)' };

export const spec = defineCommand({
  name: 'ladder',
  summary: 'the rung of each operation, with the evidence for it',
  options: {
    due: {
      type: 'boolean',
      default: false,
      description: 'walk every operation that is due (schedules, changed doors)',
    },
    every: { type: 'string', value: 'N(m|h|d)', description: 'how often to re-walk, e.g. 12h or 7d' },
    app: {
      type: 'string',
      value: 'NAME',
      description: 'declare the operations an enabled app ships (backoffice)',
    },
    json: { type: 'boolean', default: false, description: 'print JSON instead of text' },
  },
  examples: ['lift ladder declare operations.yaml', 'lift ladder report'],
  subcommands: {
    declare: {
      summary: 'store the operations of a declaration file (YAML or JSON)',
      arguments: [{ name: 'file', description: 'the declaration file', optional: true }],
      options: ['app', 'json'],
      examples: ['lift ladder declare operations.yaml', 'lift ladder declare --app backoffice'],
    },
    walk: {
      summary: 'walk from the top rung down and record the evidence',
      arguments: [{ ...OPERATION, optional: true }],
      options: ['due', 'json'],
      examples: ['lift ladder walk ticket_close', 'lift ladder walk --due'],
    },
    check: {
      summary: 'propose step-downs from repeated failures in the run log',
      arguments: [{ ...OPERATION, optional: true }],
      options: ['json'],
      examples: ['lift ladder check', 'lift ladder check ticket_close --json'],
    },
    'step-down': {
      summary: 'accept a proposal: walk again below the failing door',
      arguments: [OPERATION],
      options: ['json'],
      examples: ['lift ladder step-down ticket_close'],
    },
    schedule: {
      summary: 're-walk on a schedule (run lift ladder walk --due from cron)',
      arguments: [OPERATION],
      options: ['every', 'json'],
      examples: [
        'lift ladder schedule ticket_close --every 7d',
        'lift ladder schedule ticket_close --every 1d --json',
      ],
    },
    report: {
      summary: 'every operation: rung, why higher rungs were ruled out, failures, flags',
      options: ['json'],
      examples: ['lift ladder report', 'lift ladder report --json'],
    },
  },
});

/** lift ladder: declare operations, walk them, step down on evidence, climb on a schedule, report. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const [action, target] = positionals;
  const runtime = await openRuntime(io);
  try {
    const ladder = new Ladder(runtime);
    switch (action) {
      case 'declare': {
        if (!target && !values.app) throw new UsageError(USAGE);
        const operations = values.app
          ? ladder.declareOperations(...(await appDeclaration(io, values.app)))
          : ladder.declare(resolve(io.cwd, target!));
        if (values.json)
          printJson(
            io,
            operations.map((operation) => operation.name),
          );
        else
          io.out(
            `${operations.length} operation(s) declared: ${operations.map((operation) => operation.name).join(', ')}`,
          );
        return 0;
      }
      case 'walk': {
        if (!target && !values.due) throw new UsageError(USAGE);
        const walks = values.due ? await ladder.walkDue() : [await ladder.walk(target!, 'demand')];
        if (values.json) printJson(io, walks);
        else io.out(walks.length > 0 ? walks.map(describeWalk).join('\n\n') : 'Nothing is due.');
        return walks.every((walk) => walk.rung !== undefined) ? 0 : 1;
      }
      case 'check': {
        const names = target ? [target] : ladder.store.operations().map((operation) => operation.name);
        const proposals = [];
        for (const name of names) {
          const proposal = await ladder.check(name);
          if (proposal) proposals.push(proposal);
        }
        if (values.json) printJson(io, proposals);
        else if (proposals.length === 0) io.out('No operation shows repeated failures on its current door.');
        else
          for (const proposal of proposals) {
            io.out(
              `${proposal.operation}: ${proposal.count} × ${proposal.code} on ${proposal.tool} since ${proposal.since}; propose ${proposal.to ? `rung ${rungNumber(proposal.to)} (${proposal.to})` : 'a person'}: ${proposal.toEvidence}`,
            );
          }
        return 0;
      }
      case 'step-down': {
        if (!target) throw new UsageError(USAGE);
        const walk = await ladder.stepDown(target);
        if (values.json) printJson(io, walk);
        else io.out(describeWalk(walk));
        return 0;
      }
      case 'schedule': {
        const match = /^(\d+)([mhd])$/.exec(values.every ?? '');
        if (!target || !match) throw new UsageError(USAGE);
        const everyMs = Number(match[1]) * UNITS[match[2]!]!;
        if (!(everyMs >= UNITS.m! && everyMs <= 366 * UNITS.d!)) {
          throw new UsageError(`BAD_INPUT: --every takes 1m to 366d, not '${values.every}'.`);
        }
        if (!ladder.store.operation(target)) {
          io.err(`No operation '${target}' is declared (lift ladder declare FILE).`);
          return 1;
        }
        ladder.store.schedule(target, everyMs);
        const nextAt = ladder.store.scheduleOf(target)?.nextAt;
        if (values.json) printJson(io, { ok: true, operation: target, every_ms: everyMs, next_at: nextAt });
        else io.out(`${target} will be re-walked every ${values.every}; next ${nextAt}.`);
        return 0;
      }
      case 'report': {
        const reports = await ladderReport(ladder);
        if (values.json) printJson(io, reports);
        else
          io.out(
            reports.length > 0 ? formatReport(reports) : 'No operations declared (lift ladder declare FILE).',
          );
        return 0;
      }
      default:
        throw new UsageError(USAGE);
    }
  } finally {
    await runtime.close();
  }
};
