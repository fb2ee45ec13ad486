import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * The back office's OpenAPI description as its vendor ships it (the fixture serves the same
 * file at /api/openapi.json). It has a ticket read and no close call, which is the point.
 */
export const VENDOR_SPEC = fileURLToPath(new URL('../../fixtures/backoffice/openapi.json', import.meta.url));

/**
 * Where the back-office app talks to: lift.config `settings.backoffice`. Its presence is what
 * enables the app; without it none of its tools are listed.
 */
export const BackofficeSettingsSchema = z.strictObject({
  url: z
    .url({ protocol: /^https?$/ })
    .max(2_000)
    .describe(
      "The back office's base URL, such as http://127.0.0.1:8080 (lift fixture backoffice prints it).",
    ),
  spec: z
    .string()
    .min(1)
    .max(4_096)
    .optional()
    .describe(
      "Another OpenAPI description of the ticket API, relative to lift.config (default: the vendor's).",
    ),
  probeTicket: z
    .string()
    .regex(/^T-\d{6}$/)
    .default('T-000103')
    .describe("A ticket that exists, for the ladder's probe read of ticket_get."),
});
export type BackofficeSettings = z.input<typeof BackofficeSettingsSchema>;
export type ResolvedBackofficeSettings = z.output<typeof BackofficeSettingsSchema> & { spec: string };

/** The settings of lift.config, validated, with the description's path made absolute against `root`. */
export function backofficeSettings(
  raw: unknown,
  resolveSpec: (spec: string) => string,
): ResolvedBackofficeSettings {
  const parsed = BackofficeSettingsSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`lift.config settings.backoffice: ${z.prettifyError(parsed.error)}`);
  return { ...parsed.data, spec: parsed.data.spec ? resolveSpec(parsed.data.spec) : VENDOR_SPEC };
}
