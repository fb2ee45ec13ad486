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
  () => import('./apps/cli-tools.js'),
  () => import('./apps/messaging-tools.js'),
  () => import('./rungs/desktop/tools.js'),
  () => import('./replay/desktop-skills.js'),
];

export async function builtinTools(): Promise<AnyTool[]> {
  const modules = await Promise.all(AREAS.map((load) => load()));
  return modules.flatMap((module) => module.tools);
}
