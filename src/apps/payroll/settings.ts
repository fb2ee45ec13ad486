import { join } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import type { ExportContract } from '../../rungs/file/index.js';

/** Where the payroll program lives, passed in by whoever builds the tools (never read from the environment). */
export interface PayrollSettings {
  /** The folder the payroll program watches: inbox/, done/, errors/, exports/, payroll.lock. */
  root: string;
  /** The export schedule's promise: older exports are flagged stale (default 60 s). */
  maxExportAgeSeconds?: number;
  /** Deadline of one import, from writing to the read-back (default 30 s). */
  importDeadlineMs?: number;
}

/** The runtime service under which an operator may register PayrollSettings for the built-in tools. */
export const PAYROLL_SETTINGS_SERVICE = 'settings:payroll';

/**
 * The settings a call works with, the payroll folder and each folder in it resolved to their
 * real places: a symbolic link that leads out of the payroll folder, or a folder in Lift's home,
 * is refused before anything is read or written.
 */
export async function payrollSettings(
  ctx: ToolContext,
  given: PayrollSettings | undefined,
): Promise<PayrollSettings> {
  const settings =
    given ??
    (await ctx.service<PayrollSettings>(PAYROLL_SETTINGS_SERVICE, () => {
      throw new LiftError('NOT_CONFIGURED', 'The payroll folder is not configured.', {
        hint: "Build the tools with payrollTools({ root: '/path/to/payroll' }) in a tools module listed in lift.config, or register the 'settings:payroll' service on the runtime.",
        outcome: 'not_started',
      });
    }));
  const inPayroll = (path: string, what: string) =>
    ctx.resolvePath(path, { family: 'payroll', what, roots: [], own: [settings.root] });
  const root = inPayroll(settings.root, 'the payroll folder');
  for (const [name, folder] of Object.entries(payrollPaths({ ...settings, root }))) {
    if (name !== 'lock') inPayroll(folder, `the payroll ${name} folder`);
  }
  return { ...settings, root };
}

/** A file the payroll program left in its folder, refused when a link leads it out of there. */
export function payrollFile(ctx: ToolContext, settings: PayrollSettings, path: string): string {
  return ctx.resolvePath(path, {
    family: 'payroll',
    what: 'a payroll file',
    roots: [],
    own: [settings.root],
  });
}

export function payrollPaths(settings: PayrollSettings) {
  const { root } = settings;
  return {
    inbox: join(root, 'inbox'),
    done: join(root, 'done'),
    errors: join(root, 'errors'),
    exports: join(root, 'exports'),
    lock: join(root, 'payroll.lock'),
  };
}

const STAMP = /^hours-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z\.csv$/;

/** The export's own timestamp, from its name (hours-20261130T120501123Z.csv). */
export function exportStamp(name: string): Date | undefined {
  const match = STAMP.exec(name);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, ms] = match;
  return new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`);
}

/** The shape of the payroll program's hours export: file names, format and columns. */
export const HOURS_EXPORT_SHAPE = {
  pattern: /^hours-\d{8}T\d{9}Z\.csv$/,
  format: { kind: 'csv' },
  columns: [
    { name: 'employee_id', type: 'string' },
    { name: 'work_date', type: 'date' },
    { name: 'hours', type: 'number' },
    { name: 'batch', type: 'string' },
  ],
} as const satisfies Pick<ExportContract, 'pattern' | 'format' | 'columns'>;

/** The payroll program's scheduled export, as this contract knows it. */
export function hoursExport(settings: PayrollSettings): ExportContract {
  return {
    dir: payrollPaths(settings).exports,
    ...HOURS_EXPORT_SHAPE,
    columns: [...HOURS_EXPORT_SHAPE.columns],
    maxAgeMs: (settings.maxExportAgeSeconds ?? 60) * 1000,
    asOfFromName: exportStamp,
  };
}
