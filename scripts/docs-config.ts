/**
 * npm run docs:config: writes docs/config.md and docs/lift.config.schema.json afresh from the
 * config's Zod schemas (src/config-reference.ts). test/config/reference.test.ts fails while
 * either differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_PAGE_FILE, CONFIG_SCHEMA_FILE, configJsonSchemaText, configPage } from '../src/config-reference.js';

const root = join(import.meta.dirname, '..');
writeFileSync(join(root, CONFIG_SCHEMA_FILE), configJsonSchemaText());
writeFileSync(join(root, CONFIG_PAGE_FILE), configPage());
process.stdout.write(`Wrote ${CONFIG_PAGE_FILE} and ${CONFIG_SCHEMA_FILE}.\n`);
