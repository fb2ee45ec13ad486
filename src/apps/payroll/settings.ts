import { join } from 'node:path';
import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import type { ExportContract } from '../../rungs/file/index.js';

/**
 * lift.config `settings.payroll`: where the payroll program lives (never read from the
 * environment). A tools module may build the tools with its own (payrollTools(settings)).
 */
export const PayrollSettingsSchema = z.object({
  root: z
    .string()
    .min(1)
    .max(4_096)
    .describe(
      'The folder the payroll program watches, holding inbox/, done/, errors/, exports/ and payroll.lock.',
    ),
  maxExportAgeSeconds: z
    .number()
    .positive()
    .optional()
    .describe(
      "How old the newest export may be before a read flags it stale: the export schedule's promise (default 60).",
    ),
  importDeadlineMs: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      'How long one import may take, from writing the file to reading the result back (default 30000); a factory setting only (payrollTools), since the built-in tools declare their deadline before any config is read.',
    ),
});
export type PayrollSettings = z.infer<typeof PayrollSettingsSchema>;

/** The setting that enables the built-in payroll tools, as a hint shows it. */
export const PAYROLL_SETTING_EXAMPLE = '"settings": { "payroll": { "root": "/path/to/payroll" } }';

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
  const settings = given ?? (await configured(ctx));
  const inPayroll = (path: string, what: string) =>
    ctx.resolvePath(path, { family: 'payroll', what, roots: [], own: [settings.root] });
  const root = inPayroll(settings.root, 'the payroll folder');
  for (const [name, folder] of Object.entries(payrollPaths({ ...settings, root }))) {
    if (name !== 'lock') inPayroll(folder, `the payroll ${name} folder`);
  }
  return { ...settings, root };
}

/** `settings.payroll` of lift.config (the 'settings:payroll' service), or what to set there. */
async function configured(ctx: ToolContext): Promise<PayrollSettings> {
  const notConfigured = (problem: string) =>
    new LiftError('NOT_CONFIGURED', `The payroll folder is not configured: ${problem}.`, {
      hint: `Set lift.config settings.payroll.root to the folder the payroll program watches: ${PAYROLL_SETTING_EXAMPLE} in lift.config.json.`,
      outcome: 'not_started',
    });
  const raw = await ctx.service<unknown>(PAYROLL_SETTINGS_SERVICE, () => {
    throw notConfigured('lift.config sets no settings.payroll');
  });
  const parsed = PayrollSettingsSchema.safeParse(raw);
  if (!parsed.success) throw notConfigured(`settings.payroll: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
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
