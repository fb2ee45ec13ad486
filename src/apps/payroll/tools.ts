import type { AnyTool } from '../../contract/define-tool.js';
import { payrollExportRead } from './export-read.js';
import { payrollImportHours } from './import-hours.js';
import type { PayrollSettings } from './settings.js';

export { PAYROLL_SETTINGS_SERVICE, type PayrollSettings } from './settings.js';

/** The payroll tools over one payroll folder; without settings they use the 'settings:payroll' service. */
export function payrollTools(settings?: PayrollSettings): AnyTool[] {
  return [payrollImportHours(settings), payrollExportRead(settings)];
}

/** The built-in instances: they read their folder from the 'settings:payroll' service (NOT_CONFIGURED without it). */
export const tools: AnyTool[] = payrollTools();
