import { dirname } from 'node:path';
import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';

/**
 * lift.config `settings.hledger`: which journal the ledger tools keep. A tools module may build
 * the tools with its own instead (hledgerTools(settings)), which lift.config never sees.
 */
export const HledgerSettingsSchema = z.object({
  journal: z
    .string()
    .min(1)
    .max(4_096)
    .describe(
      'The journal file the ledger tools read and append to (hledger -f), such as /srv/books/main.journal.',
    ),
  program: z
    .string()
    .min(1)
    .max(4_096)
    .optional()
    .describe('The hledger executable (default: `hledger` on PATH).'),
});
export type HledgerSettings = z.infer<typeof HledgerSettingsSchema>;

/** The setting that enables the built-in ledger tools, as a hint shows it. */
export const HLEDGER_SETTING_EXAMPLE = '"settings": { "hledger": { "journal": "/path/to/main.journal" } }';

/** The runtime service under which an operator may register HledgerSettings for the built-in tools. */
export const HLEDGER_SETTINGS_SERVICE = 'settings:hledger';

/**
 * The settings a call works with, the journal resolved to its real place: a journal that is a
 * symbolic link out of its folder, or one in Lift's home, is refused before hledger reads it.
 */
export async function hledgerSettings(
  ctx: ToolContext,
  given: HledgerSettings | undefined,
): Promise<HledgerSettings> {
  const settings = given ?? (await configured(ctx));
  const journal = ctx.resolvePath(settings.journal, {
    family: 'hledger',
    what: 'the journal',
    roots: [dirname(settings.journal)],
  });
  return { ...settings, journal };
}

/** `settings.hledger` of lift.config (the 'settings:hledger' service), or what to set there. */
async function configured(ctx: ToolContext): Promise<HledgerSettings> {
  const notConfigured = (problem: string) =>
    new LiftError('NOT_CONFIGURED', `The hledger journal is not configured: ${problem}.`, {
      hint: `Set lift.config settings.hledger.journal to the journal file: ${HLEDGER_SETTING_EXAMPLE} in lift.config.json.`,
      outcome: 'not_started',
    });
  const raw = await ctx.service<unknown>(HLEDGER_SETTINGS_SERVICE, () => {
    throw notConfigured('lift.config sets no settings.hledger');
  });
  const parsed = HledgerSettingsSchema.safeParse(raw);
  if (!parsed.success) throw notConfigured(`settings.hledger: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The lock convention for the journal: hledger has none of its own, so people and Lift share `<journal>.lock`. */
export function journalLock(settings: HledgerSettings): string {
  return `${settings.journal}.lock`;
}
