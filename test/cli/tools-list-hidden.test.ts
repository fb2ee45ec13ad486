import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LIFT_BIN, lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir();
afterAll(() => dir.remove());

/** No LIFT_SECRET_* of the machine's reaches the child: a stored password would configure a family. */
const NO_SECRETS = {
  LIFT_SECRET_EMAIL_PASSWORD: '',
  LIFT_SECRET_CHAT_PASSWORD: '',
  LIFT_SECRET_POSTGRES_PASSWORD: '',
};

let folders = 0;
/** A working folder with this lift.config.json (none when undefined) and a Lift home of its own. */
function folder(config?: Record<string, unknown>): { cwd: string; env: Record<string, string> } {
  const cwd = join(dir.path, `project-${++folders}`);
  mkdirSync(cwd);
  if (config) writeFileSync(join(cwd, 'lift.config.json'), JSON.stringify(config));
  return { cwd, env: { LIFT_HOME: join(cwd, '.lift'), ...NO_SECRETS } };
}

interface Hidden {
  family: string;
  tools: string[];
  reason: string;
  enable: string;
}
interface Listing {
  tools: Array<{ name: string; family: string }>;
  hidden: Hidden[];
}

async function listing(where: { cwd: string; env: Record<string, string> }, args: string[] = []) {
  const ran = await lift(['tools', 'list', '--json', ...args], where);
  expect(ran.code, ran.stderr).toBe(0);
  return JSON.parse(ran.stdout) as Listing;
}

const familyIn = (list: Listing, family: string) => list.hidden.find((entry) => entry.family === family);

describe('lift tools list', () => {
  it('prints what lift serve hides, why, and how to enable each family', async () => {
    const ran = await lift(['tools', 'list'], folder());
    expect(ran.code, ran.stderr).toBe(0);
    const [table = '', hidden = ''] = ran.stdout.split('\nhidden from lift serve: ');
    expect(table).toContain('build_report');
    expect(table).not.toContain('email_find');
    expect(hidden.split('\n')[0]).toBe('14 tools');
    expect(hidden).toMatch(/\n {2}email +email_draft_save, email_draft_send, email_find\n/);
    expect(hidden).toContain('why: not configured: lift.config sets no settings.email');
    expect(hidden).toMatch(
      /enable: set "settings": \{ "email": .* in lift\.config\.json, then lift secrets set email_password/,
    );
    expect(hidden).toContain('why: not configured: the secret postgres_password');
    expect(hidden).toContain('enable: lift secrets set postgres_password');
    for (const family of ['chat', 'hledger', 'payroll', 'services'])
      expect(hidden).toMatch(new RegExp(`\\n {2}${family} +\\S`));
  });

  it('--json gives the listed tools with their family, and each hidden family with its tools, reason and fix', async () => {
    const list = await listing(folder());
    expect(list.tools.find((tool) => tool.name === 'ledger_balance_read')).toBeUndefined();
    expect(list.tools.find((tool) => tool.name === 'draw_house_plan')?.family).toBe('plan');
    expect(list.hidden.map((entry) => entry.family)).toEqual([
      'chat',
      'email',
      'hledger',
      'payroll',
      'postgres',
      'services',
    ]);
    expect(familyIn(list, 'hledger')).toEqual({
      family: 'hledger',
      tools: ['ledger_add_transaction', 'ledger_balance_read', 'ledger_transaction_find'],
      reason: 'not configured: lift.config sets no settings.hledger',
      enable: 'set "settings": { "hledger": { "journal": "/path/to/main.journal" } } in lift.config.json',
    });
  });

  it('counts a family configured by its settings, its password, or a tools module that builds its tools', async () => {
    const where = folder({
      tools: ['./payroll.mjs'],
      settings: {
        hledger: { journal: 'main.journal' },
        services: { services: ['web'] },
        chat: { account: { jid: 'lift@example.org' } },
        email: { account: { address: 'not an address' } },
      },
    });
    const payroll = pathToFileURL(join(LIFT_BIN, '..', '..', 'apps', 'payroll', 'tools.js')).href;
    writeFileSync(
      join(where.cwd, 'payroll.mjs'),
      `import { payrollTools } from '${payroll}';\nexport const tools = payrollTools({ root: 'payroll' });\n`,
    );
    where.env.LIFT_SECRET_POSTGRES_PASSWORD = 'postgres-password';
    const list = await listing(where);
    const shown = list.tools.map((tool) => tool.name);
    for (const name of ['ledger_balance_read', 'payroll_import_hours', 'service_status', 'postgres_query'])
      expect(shown).toContain(name);
    expect(list.hidden.map((entry) => entry.family)).toEqual(['chat', 'email']);
    expect(familyIn(list, 'chat')).toMatchObject({
      reason: 'not configured: the secret chat_password (its password) is not stored',
      enable: 'lift secrets set chat_password',
    });
    expect(familyIn(list, 'email')?.reason).toMatch(
      /^not configured: settings\.email is not valid: .*an email address/s,
    );

    const card = await lift(['tools', 'show', 'service_status', '--json'], where);
    const schema = (
      JSON.parse(card.stdout) as { input_schema: { properties: { service: { enum: string[] } } } }
    ).input_schema;
    expect(schema.properties.service.enum).toEqual(['web']);
  });

  it('--caps and serve.caps hide the families they leave out, saying where to add them', async () => {
    const flag = await listing(folder(), ['--caps', 'office,email']);
    expect(flag.tools.map((tool) => tool.family).every((family) => family === 'office')).toBe(true);
    expect(familyIn(flag, 'git')).toMatchObject({
      reason: 'not in --caps (office, email)',
      enable: 'add git to --caps',
    });
    expect(familyIn(flag, 'email')?.reason).toBe('not configured: lift.config sets no settings.email');

    const configured = await listing(folder({ serve: { caps: ['git'] } }));
    expect(configured.tools.map((tool) => tool.name)).toEqual(['git_branch_push', 'git_log_read']);
    expect(familyIn(configured, 'office')).toMatchObject({
      reason: 'not in serve.caps (git)',
      enable: 'add office to serve.caps in lift.config',
    });
    expect(familyIn(configured, 'payroll')).toMatchObject({
      reason: 'not in serve.caps (git), and not configured: lift.config sets no settings.payroll',
      enable:
        'set "settings": { "payroll": { "root": "/path/to/payroll" } } in lift.config.json, and add payroll to serve.caps in lift.config',
    });
  });

  it('refuses a family that does not exist, naming the ones that do', async () => {
    const ran = await lift(['tools', 'list', '--caps', 'office,spreadsheets'], folder());
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      "--caps names 'spreadsheets', which is no tool family. Families: agent, backoffice, chat, desktop, email, git, hledger, ifc, image, inventory, office, payroll, plan, postgres, render3d, services, ui, video.",
    );
    const invalid = await lift(['tools', 'list'], folder({ serve: { caps: ['Office'] } }));
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('a tool family name such as office');
  });
});

describe('a hidden tool outside lift serve', () => {
  it('lift tools show says it is hidden and what serves it; lift call still runs it and answers NOT_CONFIGURED', async () => {
    const where = folder();
    const card = await lift(['tools', 'show', 'email_find'], where);
    expect(card.stdout).toContain(
      'Hidden from lift serve: not configured: lift.config sets no settings.email.',
    );
    expect(card.stdout).toContain('To serve it: set "settings": { "email":');

    const called = await lift(['call', 'email_find', '--input', '{"folder":"INBOX","limit":1}'], where);
    expect(JSON.parse(called.stdout)).toMatchObject({ ok: false, error: { code: 'NOT_CONFIGURED' } });
  });
});
