import { ShortlistConfigSchema } from './agent/shortlist-config.js';
import { BackofficeSettingsSchema } from './apps/backoffice/settings.js';
import { ChatSettingsSchema } from './apps/chat/settings.js';
import { EmailSettingsSchema } from './apps/email/settings.js';
import { HledgerSettingsSchema } from './apps/hledger/settings.js';
import { PayrollSettingsSchema } from './apps/payroll/settings.js';
import { ServiceSettingsSchema } from './apps/services/settings.js';
import { configReferenceSchema, FamilyPathsSchema, referenceJsonSchema } from './config/reference.js';
import { type JsonSchema, referencePage } from './config/reference-page.js';

/**
 * The families whose settings Lift knows, each by the schema its tools read them with: the
 * reference (docs/config.md, docs/lift.config.schema.json; npm run docs:config) is made of these.
 */
const FAMILY_SETTINGS = {
  backoffice: BackofficeSettingsSchema.describe(
    'The back-office app (its ticket API and the ladder): its presence enables the app.',
  ),
  chat: ChatSettingsSchema.describe('The chat tools: one XMPP account. Its password is the secret it names.'),
  email: EmailSettingsSchema.describe(
    'The email tools: one account on an IMAP and an SMTP server. Its password is the secret it names.',
  ),
  hledger: HledgerSettingsSchema.extend(FamilyPathsSchema.shape).describe(
    'The ledger tools over one hledger journal.',
  ),
  payroll: PayrollSettingsSchema.extend(FamilyPathsSchema.shape).describe(
    "The payroll tools over the payroll program's watched folder.",
  ),
  services: ServiceSettingsSchema.describe(
    'The service tools: which supervisord services they may read and restart.',
  ),
};

export const ConfigReferenceSchema = configReferenceSchema(FAMILY_SETTINGS, ShortlistConfigSchema);

/** Where the generated reference lives in Lift's source (and, for the schema, in its package). */
export const CONFIG_PAGE_FILE = 'docs/config.md';
export const CONFIG_SCHEMA_FILE = 'docs/lift.config.schema.json';

export function configJsonSchema(): JsonSchema {
  return referenceJsonSchema(ConfigReferenceSchema);
}

/** The JSON Schema file's text, as written: two-space JSON and a final newline. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}

/** docs/config.md: the reference page, every key of the JSON Schema with its description. */
export function configPage(): string {
  return referencePage(configJsonSchema());
}
