import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { CapabilityStore } from '../capability/store.js';
import { LiftError } from '../contract/errors.js';
import { PRIVATE_DIR_MODE } from '../contract/paths.js';
import { LIFT_VERSION } from '../contract/version.js';
import type { UiPolicy } from '../rungs/ui/policy.js';
import { type SignInRecipe, secretsOf } from '../rungs/ui/sign-in.js';
import type { Runtime } from '../runtime/runtime.js';
import { openDiscovery } from './run.js';
import type { DiscoverySession, DiscoveryTask, SessionStatus } from './session.js';
import { type BrowserChoice, openExplorationPage } from './session-page.js';
import type { DiscoverySignIn } from './ui-driver.js';

/** What `lift session start` hands the daemon it spawns (written to a file, mode 600). */
export interface DaemonConfig {
  id: string;
  task: DiscoveryTask;
  policy: UiPolicy;
  hidden: string[];
  /** The session's sign-in (`--sign-in FILE`, or the short form `--user/--secret`). */
  signIn?: SignInRecipe;
  /** A person's browser or saved sign-in instead of Lift's own browser alone. */
  browser?: BrowserChoice;
  idleSeconds: number;
}

/** What the daemon writes next to its socket: ready, then its final status when it exits. */
export interface DaemonState {
  id: string;
  pid: number;
  socket: string;
  runId?: string;
  ready: boolean;
  status?: SessionStatus;
  error?: string;
}

export type DaemonRequest =
  | { kind: 'call'; tool: string; args: unknown }
  | { kind: 'status' }
  | { kind: 'resume' }
  | { kind: 'stop' };

export function sessionsDir(home: string): string {
  return join(home, 'sessions');
}

export function statePath(home: string, id: string): string {
  return join(sessionsDir(home), `${id}.json`);
}

export function socketPath(home: string, id: string): string {
  return join(sessionsDir(home), `${id}.sock`);
}

export function readState(home: string, id: string): DaemonState | undefined {
  const file = statePath(home, id);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DaemonState) : undefined;
}

/** Sends one request to a session daemon and reads its one-line JSON answer. */
export function request(socket: string, message: DaemonRequest, timeoutMs = 120_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket);
    let buffer = '';
    const timer = setTimeout(() => {
      connection.destroy();
      reject(new Error(`The session daemon did not answer within ${timeoutMs} ms.`));
    }, timeoutMs);
    connection.on('connect', () => connection.write(`${JSON.stringify(message)}\n`));
    connection.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      const end = buffer.indexOf('\n');
      if (end >= 0) {
        clearTimeout(timer);
        connection.end();
        resolve(JSON.parse(buffer.slice(0, end)));
      }
    });
    connection.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/**
 * The session daemon: one discovery session with its browser, served on a unix socket
 * under LIFT home. It exits when the session ends, when told to stop, or when idle.
 */
export async function runDaemon(runtime: Runtime, config: DaemonConfig): Promise<void> {
  const home = runtime.home;
  mkdirSync(sessionsDir(home), { recursive: true, mode: PRIVATE_DIR_MODE });
  const socket = socketPath(home, config.id);
  rmSync(socket, { force: true });
  const state: DaemonState = { id: config.id, pid: process.pid, socket, ready: false };
  const save = () => writeFileSync(statePath(home, config.id), JSON.stringify(state), { mode: 0o600 });
  let server: Server | undefined;
  let session: DiscoverySession | undefined;
  let release: (() => Promise<void>) | undefined;
  let idle: NodeJS.Timeout | undefined;
  let resumeHandoff: (() => void) | undefined;
  let finished: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => finished(), config.idleSeconds * 1000);
  };
  try {
    const lease = await openExplorationPage(runtime, config.task.startUrl, config.policy, config.browser);
    release = lease.release;
    const signIn: DiscoverySignIn | undefined = config.signIn
      ? { recipe: config.signIn, secret: (name) => runtime.store.secrets.get(name) }
      : undefined;
    // A missing secret is an error now, before the page asks for it.
    for (const name of config.signIn ? secretsOf(config.signIn) : []) runtime.store.secrets.get(name);
    const opened = await openDiscovery({
      store: runtime.store,
      capabilities: new CapabilityStore(runtime.store.capabilities),
      page: lease.page,
      policy: config.policy,
      task: config.task,
      hidden: config.hidden,
      ...(signIn ? { signIn } : {}),
      saveProfile: lease.save,
      explorer: 'cli',
      attended: true,
      handoff: () =>
        new Promise<void>((resolve) => {
          resumeHandoff = resolve;
        }),
      liftVersion: LIFT_VERSION,
    });
    session = opened.session;
    state.runId = opened.runId;
    const live = session;
    server = createServer((connection: Socket) => {
      let buffer = '';
      connection.on('data', (chunk) => {
        buffer += chunk.toString('utf8');
        const end = buffer.indexOf('\n');
        if (end < 0) return;
        const message = JSON.parse(buffer.slice(0, end)) as DaemonRequest;
        buffer = '';
        touch();
        void answer(live, message)
          // A failure of one call is that call's answer: the session and its browser live on.
          .catch((error: unknown) => ({
            ok: false,
            error: 'INTERNAL_ERROR',
            message: `The call failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
            hint: 'Observe the page again; the session is still open.',
          }))
          .then((reply) => {
            connection.end(`${JSON.stringify(reply)}\n`);
            if (message.kind === 'stop' || live.outcome !== 'running') setImmediate(finished);
          });
      });
      connection.on('error', () => undefined);
    });
    const answer = async (current: DiscoverySession, message: DaemonRequest): Promise<unknown> => {
      switch (message.kind) {
        case 'call':
          return current.call(message.tool, message.args);
        case 'status':
          return { ok: true, ...current.status(), run_id: state.runId };
        case 'resume': {
          const resume = resumeHandoff;
          resumeHandoff = undefined;
          resume?.();
          return { ok: resume !== undefined, message: resume ? 'Resumed.' : 'No handoff is waiting.' };
        }
        case 'stop':
          current.abandon('stopped by the person');
          return { ok: true, ...current.status() };
      }
    };
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(socket, () => resolve());
    });
    state.ready = true;
    save();
    touch();
    await done;
  } catch (error) {
    // What to do about it travels with the failure: the person reads it from lift session start.
    state.error =
      error instanceof LiftError && error.hint
        ? `${error.message} ${error.hint}`
        : error instanceof Error
          ? error.message
          : String(error);
  } finally {
    clearTimeout(idle);
    if (session?.outcome === 'running') session.abandon('the session daemon went idle');
    if (session) {
      state.status = session.status();
      if (state.runId) runtime.store.runs.end(state.runId, session.outcome === 'completed');
    }
    state.ready = false;
    save();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    rmSync(socket, { force: true });
    await release?.().catch(() => undefined);
  }
}
