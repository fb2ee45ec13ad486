import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { builtinTools } from '../builtin.js';
import { type LiftConfig, loadConfig, loadConfiguredTools } from '../config/load.js';
import type { AnyTool } from '../contract/define-tool.js';
import type { JobQueue } from '../queue/queue.js';
import { addDesktopSkillTools } from '../replay/desktop-skills.js';
import { addCapabilityTools } from '../replay/load.js';
import { loadApiTools } from '../rungs/api/loader.js';
import { originsFromSettings, rootsFromSettings } from '../runtime/roots.js';
import { type ApprovedCallRelease, Runtime } from '../runtime/runtime.js';
import type { Store } from '../store/store.js';
import { UsageError } from './args.js';
import { debugLog } from './debug-log.js';
import type { CliIo } from './io.js';
import { operatorRoots } from './root-flags.js';

export interface OpenOptions {
  /** A person may be asked: replays hand an expired session to the console (lift serve, lift call --wait). */
  attended?: boolean;
  /** The folders given with --root (lift.config `roots` come first). */
  roots?: readonly string[];
}

/**
 * The runtime a command works with: built-in tools, configured tool modules and API tool files,
 * registered capabilities, and the store in LIFT_HOME or .lift.
 */
export async function openRuntime(io: CliIo, options: OpenOptions = {}): Promise<Runtime> {
  const { runtime, loadTools } = await openRuntimeThenTools(io, options);
  try {
    await loadTools();
  } catch (error) {
    await runtime.close();
    throw error;
  }
  return runtime;
}

export interface OpeningRuntime {
  /** The store and settings are ready; the registry is empty until `loadTools` settles. */
  runtime: Runtime;
  /** lift.config as it was read (defaults where it is silent). */
  config: LiftConfig;
  /**
   * Registers every tool (the first call loads them, later calls share its promise); rejects
   * if a tools module cannot be loaded.
   */
  loadTools(): Promise<void>;
}

/**
 * The runtime with its store open, before its tools are: `lift serve` answers the MCP
 * handshake first and holds tools/list and tools/call until the tools are loaded. Loading the
 * tool modules (their schemas, dozens of areas) is most of a start, and a handshake needs none
 * of it.
 */
export async function openRuntimeThenTools(io: CliIo, options: OpenOptions = {}): Promise<OpeningRuntime> {
  const debug = debugLog(io);
  const config = await loadConfig(io.cwd, io.env);
  const home = resolve(io.cwd, config.home ?? '.lift');
  debug(`config ${config.file ?? '(none: defaults)'}; home ${home}`);
  const defaultRoots = operatorRoots(config, options.roots, io);
  const shared = config.store?.postgres;
  // The PostgreSQL client loads only for a shared store: the embedded default starts as fast as before.
  const store = shared
    ? await (await import('../store/postgres/store.js')).openPostgresStore(home, shared, io.env)
    : undefined;
  const runtime: Runtime = new Runtime({
    home,
    ...(store ? { store, releaseApproved: lazyRelease(() => jobQueue(runtime), store) } : {}),
    env: io.env,
    workingDir: io.cwd,
    ...(defaultRoots ? { defaultRoots } : {}),
    userHome: io.env.HOME || homedir(),
    roots: rootsFromSettings(config.settings, config.root),
    origins: originsFromSettings(config.settings),
  });
  const { paths } = runtime;
  debug(
    paths.defaultRoots.length > 0
      ? `roots ${paths.defaultRoots.join(', ')} (${defaultRoots ? (config.roots?.length ? 'lift.config' : '--root') : 'the working folder'})`
      : `no root: ${paths.noRoot}`,
  );
  if (shared) void runtime.service(SHARED_STORE_URL, () => shared);
  for (const [name, settings] of Object.entries(config.settings)) {
    void runtime.service(`settings:${name}`, () => settings);
  }
  let loading: Promise<void> | undefined;
  return {
    runtime,
    config,
    loadTools: () => {
      loading ??= registerTools(runtime, config, options, debug);
      return loading;
    },
  };
}

async function registerTools(
  runtime: Runtime,
  config: LiftConfig,
  options: OpenOptions,
  debug: (line: string) => void,
): Promise<void> {
  const apiTools = config.apis.flatMap((file) =>
    loadApiTools(isAbsolute(file) ? file : resolve(config.root, file)),
  );
  const tools = [
    ...(await builtinTools()),
    ...(await servicesFromSettings(config)),
    ...(await loadConfiguredTools(config)),
    ...apiTools,
  ];
  debug(
    `${tools.length} tools: built-in, ${config.tools.length} configured module(s), ${apiTools.length} from API files`,
  );
  runtime.registry.addAll(tools);
  if (config.settings.backoffice !== undefined) {
    // The back-office app reads its OpenAPI description: loaded only when lift.config enables it.
    const { addBackofficeTools } = await import('../apps/backoffice/tools.js');
    await addBackofficeTools(runtime, config.settings.backoffice, (spec) => resolve(config.root, spec));
  }
  addDesktopSkillTools(await addCapabilityTools(runtime, { attended: options.attended ?? false }));
  debug(`store open; ${runtime.registry.list().length} tools with capabilities and skills`);
}

/**
 * service_status and service_restart over the services lift.config `settings.services` names,
 * in place of the built-in ones (which know only the fixture's demo-worker and are not served).
 * Settings that do not parse register nothing: lift tools list says why the family is hidden.
 */
async function servicesFromSettings(config: LiftConfig): Promise<AnyTool[]> {
  if (config.settings.services === undefined) return [];
  const { parseServiceSettings } = await import('../apps/services/settings.js');
  const parsed = parseServiceSettings(config.settings.services);
  if (!parsed.success) return [];
  const { serviceTools } = await import('../apps/services/tools.js');
  return serviceTools(parsed.data);
}

/**
 * The job queue in the shared database (lift call --queue, lift serve --queue, approvals of
 * queued calls), opened once per command on first use and closed with the runtime.
 */
/** The shared store's URL, or undefined on the embedded store. */
export function sharedStoreUrl(runtime: Runtime): Promise<string | undefined> {
  return runtime.service<string | undefined>(SHARED_STORE_URL, () => undefined);
}

export async function jobQueue(runtime: Runtime): Promise<JobQueue> {
  const url = await sharedStoreUrl(runtime);
  if (!url) {
    throw new UsageError(
      'The job queue needs the shared store: set store.postgres in lift.config (or LIFT_POSTGRES_URL) to a postgres:// URL.',
    );
  }
  return runtime.service('job-queue', async () => (await import('../queue/queue.js')).JobQueue.open(url));
}

/** The runtime service naming the shared store's URL (absent on the embedded store). */
const SHARED_STORE_URL = 'settings:store.postgres';

/** Held calls that came from the queue go back to it once approved (queue/release.ts). */
function lazyRelease(queue: () => Promise<JobQueue>, store: Store): ApprovedCallRelease {
  let release: Promise<ApprovedCallRelease> | undefined;
  return async (approvalId, options) => {
    release ??= import('../queue/release.js').then(async ({ releaseToQueue }) =>
      releaseToQueue(await queue(), store.approvals),
    );
    return (await release)(approvalId, options);
  };
}
