import { z } from 'zod';
import type { ServiceSettings } from './status.js';

/** A supervisord program name: what `supervisorctl status NAME` takes. */
const ServiceName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/, 'a supervisord program name');

/**
 * lift.config `settings.services`: which supervised services the tools may read and restart.
 * Without it the built-in tools know only the fixture's demo-worker and are not served.
 */
export const ServiceSettingsSchema = z.strictObject({
  supervisorConfig: z
    .string()
    .min(1)
    .max(4_096)
    .default('/etc/supervisor/supervisord.conf')
    .describe("supervisord's configuration file; supervisorctl finds the server through it."),
  services: z
    .tuple([ServiceName], ServiceName)
    .refine((names) => names.length <= 100, 'at most 100 services')
    .describe(
      'The supervisord program names the tools may read and restart (at least one); any other name is refused as bad input.',
    ),
  servicectl: z
    .string()
    .min(1)
    .max(4_096)
    .optional()
    .describe("The control script that restarts a service (default: the fixture's servicectl)."),
});

/** The settings as serviceTools takes them, or the reason they cannot be used. */
export function parseServiceSettings(
  settings: unknown,
): { success: true; data: ServiceSettings } | { success: false; error: string } {
  const parsed = ServiceSettingsSchema.safeParse(settings);
  if (!parsed.success) return { success: false, error: z.prettifyError(parsed.error) };
  const { supervisorConfig, services, servicectl } = parsed.data;
  return { success: true, data: { supervisorConfig, services, ...(servicectl ? { servicectl } : {}) } };
}
