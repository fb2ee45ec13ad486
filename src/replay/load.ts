import { CapabilityStore } from '../capability/store.js';
import type { Runtime } from '../runtime/runtime.js';
import { Registrations } from './registrations.js';
import { type CapabilityToolDeps, registeredCapabilityTools } from './tool.js';

/** The stores a runtime keeps capabilities and their registrations in. */
export function capabilityDeps(
  runtime: Runtime,
  handoff?: CapabilityToolDeps['handoff'],
): CapabilityToolDeps {
  return {
    capabilities: new CapabilityStore(runtime.store.db, runtime.home),
    registrations: new Registrations(runtime.store.db),
    home: runtime.home,
    ...(handoff ? { handoff } : {}),
  };
}

/** Adds every registered capability to the runtime's tools (lift tools list, lift call, MCP, the agent). */
export function addCapabilityTools(runtime: Runtime): Runtime {
  for (const tool of registeredCapabilityTools(capabilityDeps(runtime))) runtime.registry.add(tool);
  return runtime;
}
