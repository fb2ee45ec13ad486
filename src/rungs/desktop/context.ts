import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import type { DesktopSession, DesktopSettings } from './session.js';

export const DESKTOP_SERVICE = 'desktop';
export const DESKTOP_SETTINGS_SERVICE = 'settings:desktop';

/**
 * The runtime's desktop session, made on first use (no display or worker before that). The
 * session's code (display, bridge, programs) loads with it, not with the tools' declarations.
 */
export async function desktopSession(ctx: ToolContext): Promise<DesktopSession> {
  const settings = await ctx.service<DesktopSettings>(DESKTOP_SETTINGS_SERVICE, () => ({}));
  return ctx.service(
    DESKTOP_SERVICE,
    async () => new (await import('./session.js')).DesktopSession(settings),
  );
}

/** Which window a call means: a program Lift started, and optionally part of a window title. */
export const WindowSelectorShape = {
  program: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,40}$/)
    .optional()
    .describe('As start_program named it: gnome-calculator, gucharmap, ...'),
  title: z.string().min(1).max(200).optional().describe('Part of the window title, to pick a dialog.'),
};
