import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolEvent } from '../../../src/contract/context.js';
import {
  type BackofficeOptions,
  type BackofficeServer,
  startBackoffice,
} from '../../../src/fixtures/backoffice/index.js';
import {
  BrowserPool,
  type Observation,
  parsePolicy,
  type UiPolicyInput,
  UiSession,
  type UiSessionOptions,
} from '../../../src/rungs/ui/index.js';

/** A canary password: it must never appear in anything Lift returns, logs or writes. */
export const CANARY_PASSWORD = 'canary-pw-7Q2xZ9vK';

export interface Harness {
  pool: BrowserPool;
  dir: string;
  servers: BackofficeServer[];
  sessions: UiSession[];
  close(): Promise<void>;
}

/** One browser per test file, shared by every test in it. */
export async function startHarness(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'lift-ui-test-'));
  const pool = await BrowserPool.start({ profilesDir: join(dir, 'profiles'), warm: 2 });
  const harness: Harness = {
    pool,
    dir,
    servers: [],
    sessions: [],
    close: async () => {
      await Promise.all(harness.sessions.map((session) => session.close().catch(() => undefined)));
      await pool.close();
      await Promise.all(harness.servers.map((server) => server.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

export async function fixture(harness: Harness, options: BackofficeOptions = {}): Promise<BackofficeServer> {
  const server = await startBackoffice({ password: CANARY_PASSWORD, ...options });
  harness.servers.push(server);
  return server;
}

let profiles = 0;

export interface OpenedSession {
  session: UiSession;
  events: ToolEvent[];
  outputDir: string;
}

/**
 * Opens a session on the fixture's shell page, signed in with the canary password from a
 * (test) secret store, in a fresh profile.
 */
export async function openSession(
  harness: Harness,
  server: BackofficeServer,
  options: Omit<Partial<UiSessionOptions>, 'policy'> & { policy?: UiPolicyInput; view?: string } = {},
): Promise<OpenedSession> {
  const events: ToolEvent[] = [];
  const outputDir = join(harness.dir, `out-${++profiles}`);
  const { policy, view, ...rest } = options;
  const session = await UiSession.open({
    pool: harness.pool,
    // One signed-in profile per server: later sessions start signed in, as a kept profile does.
    profile: `signed-in-${server.port}`,
    outputDir,
    policy: parsePolicy(policy ?? { origins: [server.origin] }),
    startUrl: `${server.url}/app`,
    signIn: { user: server.user, passwordSecret: 'backoffice_password' },
    secret: (name) => {
      if (name !== 'backoffice_password') throw new Error(`unexpected secret ${name}`);
      return CANARY_PASSWORD;
    },
    emit: (event) => events.push(event),
    quietMs: 500,
    ...rest,
  });
  harness.sessions.push(session);
  if ((await session.state()) === 'auth_required') await session.signIn();
  if (view) {
    // Also resets the scenario and layout cookies an earlier session of the profile chose.
    const url = `${view}${view.includes('?') ? '&' : '?'}${view.includes('scenario=') ? '' : 'scenario=normal&'}${view.includes('layout=') ? '' : 'layout=normal'}`;
    const opened = await session.act([{ op: 'navigate', url: url.replace(/&$/, ''), frame: WORKSPACE }]);
    if (opened.steps[0]?.status !== 'executed')
      throw new Error(`could not open ${view}: ${opened.steps[0]?.message}`);
  }
  return { session, events, outputDir };
}

/** The ref of the first element with this role and (exact) name in an observation. */
export function refOf(observation: Observation, role: string, name: string): { ref: string } {
  const element = observation.elements.find(
    (candidate) => candidate.role === role && candidate.name === name,
  );
  if (!element) throw new Error(`No ${role} "${name}" in the observation:\n${observation.text}`);
  return { ref: element.ref };
}

export const WORKSPACE = ['Workspace'];

export function role(roleName: string, name: string) {
  return { frame: WORKSPACE, locator: { by: 'role' as const, role: roleName, name } };
}

export function cell(row: string, column: string) {
  return { frame: WORKSPACE, locator: { by: 'cell' as const, row, column } };
}

/** Looks a member up through the page: fill the ID, click Look up (by semantic targets). */
export async function lookUp(session: UiSession, memberId: string | { input: string }, button = 'Look up') {
  return session.act([
    { op: 'fill', target: role('textbox', 'Member ID'), value: memberId },
    { op: 'click', target: role('button', button) },
  ]);
}
