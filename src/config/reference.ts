import { z } from 'zod';
import { ConfigSchema } from './load.js';
import type { JsonSchema } from './reference-page.js';

/**
 * lift.config as its reference tells it: the loader's schema, with `settings.<family>` and
 * `shortlist` spelled out by the schemas their readers parse them with. The loader takes those
 * as they come and leaves each to its reader, so a family's mistake hides that family only;
 * the families' schemas live with the families and are handed in (src/config-reference.ts).
 */

/** Keys every family's settings may carry, read by the runtime rather than by the family. */
export const FamilyPathsSchema = z.object({
  roots: z
    .array(z.string().min(1).max(4_096))
    .max(100)
    .optional()
    .describe(
      "The folders this family's path tools may reach, in place of the config's `roots` (relative to the config file).",
    ),
  origins: z
    .array(z.string().min(1).max(2_000))
    .max(100)
    .optional()
    .describe("The web origins (`https://images.example.com`) the URLs this family's tools fetch may name."),
});

/** The config's schema with each known family's settings, and any other family's paths, under `settings`. */
export function configReferenceSchema(families: Record<string, z.ZodType>, shortlist: z.ZodType) {
  const known = Object.fromEntries(
    Object.entries(families).map(([family, schema]) => [family, schema.optional()]),
  );
  return ConfigSchema.extend({
    settings: z
      .object(known)
      .catchall(
        FamilyPathsSchema.catchall(z.unknown()).describe(
          'Any other family (office, image, git, plan, ...): where its tools may reach.',
        ),
      )
      .default({})
      .describe(ConfigSchema.shape.settings.description ?? ''),
    shortlist: shortlist.optional().describe(ConfigSchema.shape.shortlist.description ?? ''),
  });
}

/** The JSON Schema editors check a lift.config.json against (what a person writes: defaults optional). */
export function referenceJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  return {
    $schema,
    title: 'lift.config.json',
    description:
      'What the operator of a Lift installation decides: tool modules, the settings of each tool family, the folders tools reach, gates, the store and what lift serve offers. See docs/config.md.',
    ...rest,
  };
}
