import { ChatSettingsSchema } from './apps/chat/settings.js';
import { EmailSettingsSchema } from './apps/email/settings.js';
import { parseServiceSettings } from './apps/services/settings.js';
import type { AnyTool } from './contract/define-tool.js';

/** Why a family's built-in tools cannot work here, and the step that sets them up. */
export interface Unconfigured {
  reason: string;
  enable: string;
}

/** What a family's check reads: lift.config `settings`, and which secrets are stored. */
export interface Setup {
  settings: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  hasSecret(name: string): boolean;
}

interface Family {
  /** As `lift serve --caps`, `serve.caps` and lift.config `settings.<name>` name it. */
  name: string;
  /** The tools' groups (the shortlist's names) when they differ from the family's name. */
  groups?: string[];
  /**
   * Undefined when the family's built-in tools work as they are here. Tools a lift.config
   * module or API file builds are the operator's own and count as configured.
   */
  check?: (setup: Setup) => Unconfigured | undefined;
}

const CONFIG = 'lift.config.json';
const setIn = (family: string, example: string) => `set "settings": { "${family}": ${example} } in ${CONFIG}`;

/** settings.<family> is there and its `key` names something; else what is missing. */
function settingNamed(setup: Setup, family: string, key: string, example: string): Unconfigured | undefined {
  const given = setup.settings[family];
  const enable = setIn(family, example);
  if (given === undefined) return { reason: `lift.config sets no settings.${family}`, enable };
  const value = given[key];
  if (typeof value !== 'string' || value.length === 0)
    return { reason: `settings.${family} names no ${key}`, enable };
  return undefined;
}

/** A settings block's mistakes, one `at path: message` each (the `.` layer imports no zod of its own). */
function problems(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): string {
  return issues
    .map((issue) =>
      issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message,
    )
    .join('; ');
}

/** An account family (email, chat): valid settings, and the password secret they name stored. */
function account(
  family: string,
  schema: typeof EmailSettingsSchema | typeof ChatSettingsSchema,
  example: string,
): (setup: Setup) => Unconfigured | undefined {
  return (setup) => {
    const given = setup.settings[family];
    const enable = setIn(family, example);
    if (given === undefined)
      return {
        reason: `lift.config sets no settings.${family}`,
        enable: `${enable}, then lift secrets set ${family}_password`,
      };
    const parsed = schema.safeParse(given);
    if (!parsed.success)
      return { reason: `settings.${family} is not valid: ${problems(parsed.error.issues)}`, enable };
    const secret = parsed.data.account.passwordSecret;
    if (!setup.hasSecret(secret))
      return {
        reason: `the secret ${secret} (its password) is not stored`,
        enable: `lift secrets set ${secret}`,
      };
    return undefined;
  };
}

/**
 * The families of Lift's built-in tools, and what each needs before its tools can work: a
 * family with a check is served only when the check passes (or its tools come from a tools
 * module of the operator's); one without needs no configuration (its programs are an
 * installation matter: lift doctor names the missing ones).
 */
const FAMILIES: readonly Family[] = [
  { name: 'agent' },
  // Registered only when lift.config sets settings.backoffice (its tools read the vendor's API description).
  { name: 'backoffice' },
  {
    name: 'chat',
    check: account('chat', ChatSettingsSchema, '{ "account": { "jid": "lift@example.org" } }'),
  },
  // Desktop programs under Xvfb, and the skills learned over them.
  { name: 'desktop' },
  {
    name: 'email',
    check: account(
      'email',
      EmailSettingsSchema,
      '{ "account": { "address": "me@example.org" }, "imap": { "host": "..." }, "smtp": { "host": "..." } }',
    ),
  },
  { name: 'git' },
  {
    name: 'hledger',
    groups: ['accounting'],
    check: (setup) => settingNamed(setup, 'hledger', 'journal', '{ "journal": "/path/to/main.journal" }'),
  },
  { name: 'ifc', groups: ['bim'] },
  { name: 'image' },
  { name: 'inventory' },
  { name: 'office' },
  {
    name: 'payroll',
    check: (setup) => settingNamed(setup, 'payroll', 'root', '{ "root": "/path/to/payroll" }'),
  },
  { name: 'plan', groups: ['cad'] },
  {
    // The built-in postgres_query signs in to 127.0.0.1:5432 as lift (apps/cli-tools.ts).
    name: 'postgres',
    check: (setup) =>
      setup.hasSecret('postgres_password')
        ? undefined
        : {
            reason:
              'the secret postgres_password (the password of user lift on 127.0.0.1:5432) is not stored',
            enable: 'lift secrets set postgres_password',
          },
  },
  { name: 'render3d', groups: ['three'] },
  {
    // The built-in instances know only the fixture's demo-worker; settings.services registers real ones.
    name: 'services',
    check: (setup) => {
      const given = setup.settings.services;
      const enable = setIn('services', '{ "services": ["my-worker"] }');
      if (given === undefined) return { reason: 'lift.config sets no settings.services', enable };
      const parsed = parseServiceSettings(given);
      return parsed.success
        ? undefined
        : { reason: `settings.services is not valid: ${parsed.error}`, enable };
    },
  },
  // Timelines written as the editors' files and rendered by melt: media paths stay inside the
  // working folder (or settings.video.roots), so like office and image it needs no configuration.
  { name: 'video' },
  // Capabilities discovered from web UIs (lift discover), replayed in Chromium.
  { name: 'ui', groups: ['capabilities'] },
];

/** Tools with no group (a tools module's, an API file's without one) form this family. */
const UNGROUPED = 'custom';

const BY_GROUP = new Map<string, Family>();
for (const family of FAMILIES)
  for (const group of family.groups ?? [family.name]) BY_GROUP.set(group, family);

/** The family a tool belongs to: its group's, else its group's name (a lift.config module's own), else `custom`. */
export function familyOf(tool: Pick<AnyTool, 'group'>): string {
  if (tool.group === undefined) return UNGROUPED;
  return BY_GROUP.get(tool.group)?.name ?? tool.group;
}

/** The built-in families' names, in order. */
export const BUILTIN_FAMILIES: readonly string[] = FAMILIES.map((family) => family.name);

/** The names --caps may use with these tools registered: the built-in families and the tools' own. */
export function familyNames(tools: Iterable<Pick<AnyTool, 'group'>>): string[] {
  const names = new Set(BUILTIN_FAMILIES);
  for (const tool of tools) names.add(familyOf(tool));
  return [...names].sort();
}

/** Why the built-in tools of `family` cannot work here, or undefined when they can. */
export function unconfigured(family: string, setup: Setup): Unconfigured | undefined {
  return FAMILIES.find((known) => known.name === family)?.check?.(setup);
}
