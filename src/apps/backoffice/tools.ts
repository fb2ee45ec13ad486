import type { AnyTool } from '../../contract/define-tool.js';
import { capabilityDeps } from '../../replay/load.js';
import { importOpenApi } from '../../rungs/api/import.js';
import { toolsFromApiFile } from '../../rungs/api/loader.js';
import { readSpec } from '../../rungs/api/openapi.js';
import type { Runtime } from '../../runtime/runtime.js';
import { backofficeOperations } from './operations.js';
import { backofficeSettings, type ResolvedBackofficeSettings } from './settings.js';
import { ticketCloseWithNoteTool } from './ticket-close-with-note.js';

export { type BackofficeSettings, BackofficeSettingsSchema, VENDOR_SPEC } from './settings.js';

/** The OpenAPI operation the ticket read is imported from (it becomes the tool ticket_get). */
const TICKET_READ = 'getTicket';

/**
 * The back-office app, the worked example of the ladder made a real app: ticket_get on
 * rung 1 (imported from the vendor's OpenAPI description, which has no close call) and
 * ticket_close_with_note on the script rung (the compiled ticket_close_page capability,
 * read back through ticket_get). Nothing connects until a tool runs.
 */
export async function backofficeTools(
  runtime: Runtime,
  settings: ResolvedBackofficeSettings,
): Promise<AnyTool[]> {
  const read = toolsFromApiFile(importOpenApi(readSpec(settings.spec), { only: [TICKET_READ] }).file, {
    baseUrl: settings.url,
  });
  return [...read, await ticketCloseWithNoteTool(capabilityDeps(runtime))];
}

/**
 * Registers the app's tools when lift.config has `settings.backoffice`, and offers its ladder
 * declaration (lift ladder declare backoffice) under the name `backoffice`.
 */
export async function addBackofficeTools(
  runtime: Runtime,
  raw: unknown,
  resolveSpec: (spec: string) => string,
): Promise<Runtime> {
  if (raw === undefined) return runtime;
  const settings = backofficeSettings(raw, resolveSpec);
  for (const tool of await backofficeTools(runtime, settings)) runtime.registry.add(tool);
  return runtime;
}

/** The app's operations for the ladder, with the configured URL and description. */
export function backofficeDeclaration(raw: unknown, resolveSpec: (spec: string) => string) {
  const settings = backofficeSettings(raw, resolveSpec);
  return backofficeOperations({
    spec: settings.spec,
    baseUrl: settings.url,
    probeTicket: settings.probeTicket,
  });
}
