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

/** The stores a runtime keeps capabilities and their registrations in. */
export function capabilityDeps(
  runtime: Runtime,
  handoff?: CapabilityToolDeps['handoff'],
): CapabilityToolDeps {
  return {
    capabilities: new CapabilityStore(runtime.store.capabilities),
    registrations: runtime.store.registrations,
    signIns: new ReplaySignIns(runtime.store.db),
    home: runtime.home,
    ...(handoff ? { handoff } : {}),
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
export async function addCapabilityTools(runtime: Runtime): Promise<Runtime> {
  const deps = capabilityDeps(runtime);
  for (const tool of await registeredCapabilityTools(deps)) runtime.registry.add(tool);
  for (const tool of await heldUnregisteredTools(runtime, deps)) runtime.registry.add(tool);
  return runtime;
}
