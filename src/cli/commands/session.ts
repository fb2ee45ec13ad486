import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../../config/load.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../contract/paths.js';
import {
  type DaemonConfig,
  type DaemonRequest,
  readState,
  request,
  runDaemon,
  sessionsDir,
  socketPath,
} from '../../discover/daemon.js';
import { COMPLETE_DESCRIPTION } from '../../discover/tools/complete-description.js';
import { loadPolicy } from '../../rungs/ui/policy.js';
import { parse, parseJsonArgument, UsageError } from '../args.js';
import { usageOf } from '../help.js';
import type { CliIo, Command } from '../io.js';
import { printJson } from '../io.js';
import { numberFlag } from '../number-flag.js';
import { openRuntime } from '../open-runtime.js';
import { replyText } from '../session-text.js';
import { browserFrom, recipeFromFlags } from '../sign-in-flags.js';
import { defineCommand, type Parsed } from '../spec.js';
import { DISCOVERY_OPTIONS, taskFromArgs } from './discover.js';

const ID = { name: 'id', description: 'the session id lift session start printed' };

export const spec = defineCommand({
  name: 'session',
  summary: 'the same exploration step by step, for scripts and people',
  options: {
    ...DISCOVERY_OPTIONS,
    'idle-s': {
      type: 'string',
      default: '600',
      value: 'S',
      description: 'end the session after S idle seconds',
    },
    screenshot: { type: 'boolean', default: false, description: 'attach a masked screenshot' },
    find: {
      type: 'string',
      value: 'TEXT',
      description: 'show only the lines and table rows holding this text',
    },
    page: { type: 'string', value: 'N', description: 'which page of a long observation (1 for the first)' },
    reason: {
      type: 'string',
      default: 'A person must act in the browser.',
      value: 'TEXT',
      description: 'what the person must do',
    },
  },
  examples: [
    'lift session start --url http://127.0.0.1:8080/members --policy policy.yaml --task "look up a member" --input memberId=M-1001 --output name:string',
    'lift session observe s_3f2a9c01de',
  ],
  subcommands: {
    start: {
      summary: 'start a session (a small daemon keeps the browser) and print its id',
      options: [...Object.keys(DISCOVERY_OPTIONS), 'idle-s'],
      examples: [
        'lift session start --url http://127.0.0.1:8080/members --policy policy.yaml --task "look up a member" --input memberId=M-1001 --output name:string',
        'lift session start --url http://127.0.0.1:8080/members --browser-url http://127.0.0.1:9222 --policy policy.yaml --task "look up a member" --input memberId=M-1001 --output name:string',
      ],
    },
    observe: {
      summary: 'what the page shows now',
      arguments: [ID],
      options: ['screenshot', 'find', 'page', 'json'],
      examples: [
        'lift session observe s_3f2a9c01de',
        'lift session observe s_3f2a9c01de --find Savings',
        'lift session observe s_3f2a9c01de --page 2',
      ],
    },
    act: {
      summary: 'an action, a list of actions, or {"actions":[...]}',
      arguments: [ID, { name: 'actions', description: 'the action(s) as JSON' }],
      options: ['json'],
      examples: [
        `lift session act s_3f2a9c01de '{"op":"fill","target":{"ref":"e12"},"value":{"input":"memberId"}}'`,
        `lift session act s_3f2a9c01de '{"op":"click","target":{"locator":{"by":"role","role":"button","name":"Search"}}}'`,
        // An autocomplete suggests only on key events: type, observe the options, click one.
        `lift session act s_3f2a9c01de '{"op":"type","target":{"ref":"e14"},"value":{"input":"city"}}'`,
        `lift session act s_3f2a9c01de '{"op":"read","target":{"locator":{"by":"cell","row":"M-1001","column":"Name"}},"as":"name"}'`,
      ],
    },
    handoff: {
      summary: 'ask a person to act in the browser; waits until lift session resume',
      arguments: [ID],
      options: ['reason', 'json'],
      examples: ['lift session handoff s_3f2a9c01de --reason "enter the second factor"'],
    },
    resume: {
      summary: 'the person is done: the session goes on',
      arguments: [ID],
      options: ['json'],
      examples: ['lift session resume s_3f2a9c01de'],
    },
    complete: {
      summary: 'name the outputs and the checkpoint; compiles the capability',
      arguments: [ID, { name: 'result', description: '{"outputs":[...],"checkpoint":{...}} as JSON' }],
      options: ['json'],
      examples: [
        `lift session complete s_3f2a9c01de '{"outputs":["name"],"checkpoint":{"target":{"ref":"e31"},"input":"memberId"}}'`,
        `lift session complete s_3f2a9c01de '{"outputs":["name"],"checkpoint":{"target":{"ref":"e31"},"input":"memberId"},"examples":[{"outcome":"not_found","inputs":{"memberId":"M-0000"}}]}'`,
      ],
      notes: COMPLETE_DESCRIPTION,
    },
    status: {
      summary: "the session's state, running or ended",
      arguments: [ID],
      options: ['json'],
      examples: ['lift session status s_3f2a9c01de'],
    },
    stop: {
      summary: 'end the session',
      arguments: [ID],
      options: ['json'],
      examples: ['lift session stop s_3f2a9c01de'],
    },
    daemon: { summary: 'the daemon itself', arguments: [ID], options: [], examples: [], hidden: true },
  },
});

type SessionValues = Parsed<typeof spec.options>['values'];

/** What a usage error prints: every subcommand's line, from the declaration above. */
const USAGE = usageOf(spec);

async function homeOf(io: CliIo): Promise<string> {
  const config = await loadConfig(io.cwd, io.env);
  return resolve(io.cwd, config.home ?? '.lift');
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

async function start(values: SessionValues, io: CliIo): Promise<number> {
  if (!values.policy) throw new UsageError(USAGE);
  const task = taskFromArgs(values);
  const policy = loadPolicy(values.policy);
  const signIn = recipeFromFlags(values, io.cwd);
  const browser = browserFrom(values, io.cwd);
  const home = await homeOf(io);
  const id = `s_${randomBytes(5).toString('hex')}`;
  const config: DaemonConfig = {
    id,
    task,
    policy,
    hidden: values.hide ?? [],
    idleSeconds: numberFlag(values['idle-s'], '--idle-s', { min: 1, max: 86_400, unit: 'seconds' }) ?? 600,
    ...(signIn ? { signIn } : {}),
    ...(browser.endpoint || browser.storageState ? { browser } : {}),
  };
  mkdirSync(sessionsDir(home), { recursive: true, mode: PRIVATE_DIR_MODE });
  writeFileSync(join(sessionsDir(home), `${id}.config.json`), JSON.stringify(config), { mode: 0o600 });
  const log = openSync(join(sessionsDir(home), `${id}.log`), 'a', PRIVATE_FILE_MODE);
  // The same node flags (a loader such as tsx when run from the source) for the daemon.
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, 'session', 'daemon', id], {
    cwd: io.cwd,
    env: { ...io.env, LIFT_HOME: home },
    detached: true,
    stdio: ['ignore', log, log],
  });
  child.unref();
  for (let waited = 0; waited < 90_000; waited += 100) {
    const state = readState(home, id);
    if (state?.ready) {
      if (values.json) printJson(io, { ok: true, id, run_id: state.runId, pid: state.pid });
      else io.out(id);
      return 0;
    }
    if (state?.error || (state && !state.ready && state.status)) {
      io.err(`The session daemon failed to start: ${state.error ?? state.status?.reason}`);
      return 1;
    }
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  io.err(`The session daemon did not start; see ${join(sessionsDir(home), `${id}.log`)}.`);
  return 1;
}

async function send(
  io: CliIo,
  id: string | undefined,
  message: DaemonRequest,
  json: boolean,
): Promise<number> {
  if (!id) throw new UsageError(USAGE);
  const home = await homeOf(io);
  const socket = socketPath(home, id);
  if (!existsSync(socket)) {
    const state = readState(home, id);
    if (!state) {
      io.err(`No session '${id}'.`);
      return 1;
    }
    if (message.kind === 'status') {
      const ended = { ok: true, ...state.status, running: false, run_id: state.runId };
      if (json) printJson(io, ended);
      else io.out(replyText(message, ended));
      return 0;
    }
    io.err(
      `Session '${id}' has ended (${state.status?.outcome ?? 'stopped'}${state.status?.reason ? `: ${state.status.reason}` : ''}).`,
    );
    return 1;
  }
  const reply = (await request(socket, message, 15 * 60_000)) as { ok: boolean } & Record<string, unknown>;
  if (json) printJson(io, reply);
  else io.out(replyText(message, reply));
  return reply.ok ? 0 : 1;
}

function actionsOf(text: string): unknown {
  const value = parseJsonArgument(text, 'JSON');
  if (Array.isArray(value)) return { actions: value };
  if (value && typeof value === 'object' && 'actions' in value) return value;
  return { actions: [value] };
}

/** lift session: discovery one step at a time, for scripts and people; a small daemon keeps the browser. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const [action, ...rest] = positionals;
  switch (action) {
    case 'start':
      return start(values, io);
    case 'daemon': {
      const id = rest[0];
      if (!id) throw new UsageError(USAGE);
      const runtime = await openRuntime(io);
      try {
        const config = JSON.parse(
          readFileSync(join(sessionsDir(runtime.home), `${id}.config.json`), 'utf8'),
        ) as DaemonConfig;
        await runDaemon(runtime, config);
      } finally {
        await runtime.close();
      }
      return 0;
    }
    case 'observe': {
      const args = {
        ...(values.screenshot ? { screenshot: true } : {}),
        ...(values.find ? { find: { match: values.find } } : {}),
        ...(values.page
          ? { page: numberFlag(values.page, '--page', { min: 1, max: 200, integer: true, unit: 'page' }) }
          : {}),
      };
      return send(io, rest[0], { kind: 'call', tool: 'observe', args }, values.json);
    }
    case 'act':
    case 'complete': {
      const [id, text] = rest;
      if (!text) throw new UsageError(USAGE);
      const args = action === 'act' ? actionsOf(text) : parseJsonArgument(text, 'JSON');
      return send(io, id, { kind: 'call', tool: action, args }, values.json);
    }
    case 'handoff': {
      return send(
        io,
        rest[0],
        { kind: 'call', tool: 'request_handoff', args: { reason: values.reason } },
        values.json,
      );
    }
    case 'resume':
      return send(io, rest[0], { kind: 'resume' }, values.json);
    case 'status':
      return send(io, rest[0], { kind: 'status' }, values.json);
    case 'stop':
      return send(io, rest[0], { kind: 'stop' }, values.json);
    default:
      throw new UsageError(USAGE);
  }
};
