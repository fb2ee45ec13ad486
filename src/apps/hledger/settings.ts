import { dirname } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';

/** Which journal the ledger tools keep, passed in by whoever builds the tools. */
export interface HledgerSettings {
  /** The journal file (hledger -f). */
  journal: string;
  /** The hledger executable (default `hledger` on PATH). */
  program?: string;
}

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
  const settings =
    given ??
    (await ctx.service<HledgerSettings>(HLEDGER_SETTINGS_SERVICE, () => {
      throw new LiftError('NOT_CONFIGURED', 'The hledger journal is not configured.', {
        hint: "Build the tools with hledgerTools({ journal: '/path/to/main.journal' }) in a tools module listed in lift.config, or register the 'settings:hledger' service on the runtime.",
        outcome: 'not_started',
      });
    }));
  const journal = ctx.resolvePath(settings.journal, {
    family: 'hledger',
    what: 'the journal',
    roots: [dirname(settings.journal)],
  });
  return { ...settings, journal };
}

/** The lock convention for the journal: hledger has none of its own, so people and Lift share `<journal>.lock`. */
export function journalLock(settings: HledgerSettings): string {
  return `${settings.journal}.lock`;
}
