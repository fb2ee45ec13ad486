import { isModelEvent } from '../../store/runs.js';
import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { numberFlag } from '../number-flag.js';
import { openRuntime } from '../open-runtime.js';
import { defineCommand } from '../spec.js';

export const spec = defineCommand({
  name: 'runs',
  summary: 'run records and their events (model events counted)',
  options: {
    limit: { type: 'string', default: '20', value: 'N', description: 'how many runs, newest first' },
    json: { type: 'boolean', default: false, description: 'print JSON instead of text' },
  },
  examples: ['lift runs --limit 5', 'lift runs show r_20260101_ab12cd'],
  subcommands: {
    list: {
      summary: 'the newest runs: kind, outcome, events, model events, title',
      options: ['limit', 'json'],
      examples: ['lift runs', 'lift runs --limit 5 --json'],
      default: true,
    },
    show: {
      summary: "one run's events in order",
      arguments: [{ name: 'id', description: 'the run id (lift runs)' }],
      options: ['json'],
      examples: ['lift runs show r_20260101_ab12cd', 'lift runs show r_20260101_ab12cd --json'],
    },
  },
});

/** lift runs [--limit N] | lift runs show ID: run records and their events. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const [action = 'list', id] = positionals;
  const runtime = await openRuntime(io);
  try {
    const runs = runtime.store.runs;
    if (action === 'list') {
      const limit = numberFlag(values.limit, '--limit', { min: 1, max: 10_000, unit: 'runs', integer: true });
      const records = await runs.list(limit);
      if (values.json) printJson(io, records);
      else {
        for (const record of records) {
          const ok = record.held ? 'held' : record.ok === undefined ? '…' : record.ok ? 'ok' : 'failed';
          io.out(
            `${record.id}  ${record.kind.padEnd(9)}  ${ok.padEnd(6)}  ${String(record.events).padStart(4)} events  ${record.modelEvents} model  ${record.title}`,
          );
        }
      }
      return 0;
    }
    if (action === 'show') {
      if (!id) throw new UsageError('Usage: lift runs show ID');
      const record = await runs.get(id);
      if (!record) {
        io.err(`No run has id '${id}'.`);
        return 1;
      }
      const events = await runs.events(id);
      const modelEvents = events.filter(isModelEvent).length;
      if (values.json) {
        printJson(io, { ...record, model_events: modelEvents, events });
        return 0;
      }
      io.out(`${record.id}  ${record.kind}  ${record.title}`);
      io.out(`started ${record.startedAt}${record.endedAt ? `, ended ${record.endedAt}` : ''}`);
      io.out(`${events.length} events, ${modelEvents} model or provider events`);
      for (const event of events) {
        const { t, type, duration_ms, ...rest } = event;
        io.out(
          `  ${t}  ${type.padEnd(24)} ${duration_ms !== undefined ? `${duration_ms} ms` : ''}  ${JSON.stringify(rest)}`,
        );
      }
      return 0;
    }
    throw new UsageError('Usage: lift runs [--limit N] | lift runs show ID');
  } finally {
    await runtime.close();
  }
};
