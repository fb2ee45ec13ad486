import { CapabilityStore } from '../capability/store.js';
import type { AnyTool } from '../contract/define-tool.js';
import type { Runtime } from '../runtime/runtime.js';
import { ReplaySignIns } from './sign-ins.js';
import {
  type CapabilityToolDeps,
  registeredCapabilityTools,
  UNREGISTERED_PREFIX,
  unregisteredCapabilityTool,
} from './tool.js';

export interface CapabilityToolOptions {
  /**
   * A person may be asked: a replay that meets an expired session or a second factor hands
   * its page over (lift console shows it) instead of answering AUTH_REQUIRED at once.
   */
  attended?: boolean;
}

/** The stores a runtime keeps capabilities and their registrations in, and who may be asked. */
export function capabilityDeps(runtime: Runtime, options: CapabilityToolOptions = {}): CapabilityToolDeps {
  return {
    capabilities: new CapabilityStore(runtime.store.capabilities),
    registrations: runtime.store.registrations,
    signIns: new ReplaySignIns(runtime.store.db),
    home: runtime.home,
    // Loaded on the first handoff: a command that never hands a page over never loads it.
    ...(options.attended
      ? {
          handoff: async (request) =>
            (await import('../rungs/ui/handoff/desk.js')).handOverPage(runtime, request),
        }
      : {}),
  };
}

/**
 * The tools of unregistered capabilities a held call waits on (`lift replay FILE` of a
 * write), so that `lift approve` finds the tool the call was held for. They are not
 * offered otherwise: nobody reviewed them.
 */
async function heldUnregisteredTools(runtime: Runtime, deps: CapabilityToolDeps): Promise<AnyTool[]> {
  const names = new Set(
    (await runtime.store.approvals.list(['pending', 'approved']))
      .map((approval) => approval.tool)
      .filter((name) => name.startsWith(UNREGISTERED_PREFIX)),
  );
  const tools: AnyTool[] = [];
  for (const name of names) {
    const stored = await deps.capabilities.resolve(name.slice(UNREGISTERED_PREFIX.length));
    if (!stored) continue;
    try {
      tools.push(
        unregisteredCapabilityTool(await deps.capabilities.load(stored.revision), stored.revision, deps),
      );
    } catch {
      // Tampered since it was held: approving it says UNKNOWN_TOOL, nothing runs.
    }
  }
  return tools;
}

/** Adds every registered capability to the runtime's tools (lift tools list, lift call, MCP, the agent). */
export async function addCapabilityTools(
  runtime: Runtime,
  options: CapabilityToolOptions = {},
): Promise<Runtime> {
  const deps = capabilityDeps(runtime, options);
  for (const tool of await registeredCapabilityTools(deps)) runtime.registry.add(tool);
  for (const tool of await heldUnregisteredTools(runtime, deps)) runtime.registry.add(tool);
  return runtime;
}
