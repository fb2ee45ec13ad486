import type { AnyTool } from './contract/define-tool.js';

/**
 * The tools Lift ships. Each area exports its tools from one module, loaded lazily so that
 * commands that need none of them start fast. Add a line per area.
 */
const AREAS: Array<() => Promise<{ tools: AnyTool[] }>> = [
  () => import('./agent/tools.js'),
  () => import('./apps/hledger/tools.js'),
  () => import('./apps/payroll/tools.js'),
  () => import('./apps/office/tools.js'),
  () => import('./apps/image/tools.js'),
  () => import('./apps/plan/tools.js'),
  () => import('./apps/render3d/tools.js'),
  () => import('./apps/ifc/tools.js'),
  () => import('./apps/video/tools.js'),
  () => import('./apps/cli-tools.js'),
  () => import('./apps/messaging-tools.js'),
  () => import('./rungs/desktop/tools.js'),
  () => import('./replay/desktop-skills.js'),
];

/** The instances builtinTools returned: a tool of the same name from a tools module is not one of them. */
const shipped = new WeakSet<AnyTool>();

export async function builtinTools(): Promise<AnyTool[]> {
  const modules = await Promise.all(AREAS.map((load) => load()));
  const tools = modules.flatMap((module) => module.tools);
  for (const tool of tools) shipped.add(tool);
  return tools;
}

/**
 * Whether this is one of the instances Lift ships with their default settings (which read
 * lift.config `settings.<family>`), not one an operator's tools module built with its own.
 */
export function isBuiltIn(tool: AnyTool): boolean {
  return shipped.has(tool);
}
