import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import {
  connectStdio,
  servedTools as listedByDefault,
  registeredTools,
  runLift,
  type Workspace,
  workspace,
} from './support.js';

const workspaces: Workspace[] = [];
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  for (const ws of workspaces) ws.remove();
});

function open(config: Record<string, unknown> = {}, env: Record<string, string> = {}): Workspace {
  const ws = workspace({ config });
  Object.assign(ws.env, env);
  workspaces.push(ws);
  return ws;
}

async function listed(ws: Workspace, args: string[] = []): Promise<{ client: Client; names: string[] }> {
  const client = await connectStdio(ws, undefined, args);
  clients.push(client);
  const { tools } = await client.listTools();
  return { client, names: tools.map((tool) => tool.name) };
}

const names = (tools: Array<{ name: string }>) => tools.map((tool) => tool.name);

describe('lift serve lists a family only when it is configured or needs no configuration', () => {
  it('hides email, chat, hledger, payroll, services and postgres where nothing configures them, and refuses their calls', async () => {
    const ws = open();
    const { client, names: served } = await listed(ws);
    expect(served).toEqual(names(await listedByDefault()));
    for (const hidden of [
      'email_find',
      'chat_post',
      'ledger_balance_read',
      'payroll_export_read',
      'service_status',
    ])
      expect(served).not.toContain(hidden);
    expect(served).not.toContain('postgres_query');
    expect(served).toContain('build_report');

    await expect(
      client.callTool({ name: 'email_find', arguments: { folder: 'INBOX', limit: 1 } }),
    ).rejects.toThrow(
      /Tool 'email_find' is not served here: not configured: lift.config sets no settings\.email\..*lift secrets set email_password/,
    );
  }, 120_000);

  it('lists every family once each is configured: settings, a stored password, or both', async () => {
    const ws = open(
      {
        settings: {
          email: { account: { address: 'me@example.org' } },
          chat: { account: { jid: 'lift@example.org' } },
          hledger: { journal: 'books/main.journal' },
          payroll: { root: 'payroll' },
          services: { services: ['demo-worker'] },
        },
      },
      {
        LIFT_SECRET_EMAIL_PASSWORD: 'mail-password',
        LIFT_SECRET_CHAT_PASSWORD: 'chat-password',
        LIFT_SECRET_POSTGRES_PASSWORD: 'postgres-password',
      },
    );
    mkdirSync(join(ws.cwd, 'books'));
    writeFileSync(join(ws.cwd, 'books', 'main.journal'), '');
    const { names: served } = await listed(ws);
    expect(served).toEqual([...names(await registeredTools()), 'approval_status'].sort());
  }, 120_000);
});

describe('lift serve --caps and serve.caps choose the families served', () => {
  it('--caps office,ui serves the office tools and the server’s own approval_status', async () => {
    const { names: served } = await listed(open(), ['--caps', 'office,ui']);
    expect(served).toEqual([
      'approval_status',
      'build_deck',
      'build_report',
      'build_workbook',
      'convert_document',
    ]);
  }, 120_000);

  it('serve.caps in lift.config chooses them, and --caps replaces it', async () => {
    const ws = open({ serve: { caps: ['git', 'custom'] } });
    const { names: fromConfig } = await listed(ws);
    expect(fromConfig).toEqual(
      [
        'approval_status',
        'git_branch_push',
        'git_log_read',
        ...names(await registeredTools()).filter((name) => name.startsWith('note_')),
      ].sort(),
    );
    const { names: fromFlag } = await listed(ws, ['--caps', 'inventory']);
    expect(fromFlag).toEqual(['approval_status', 'inventory_create_item', 'inventory_find_items']);
  }, 120_000);

  it('a family named in neither Lift nor the tools is a usage error that lists the valid ones', async () => {
    const ws = open();
    const flag = await runLift(ws, ['serve', '--stdio', '--caps', 'office,mail']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain(
      "--caps names 'mail', which is no tool family. Families: agent, backoffice, chat, custom, desktop, email,",
    );

    const configured = open({ serve: { caps: ['office', 'spreadsheets'] } });
    const fromConfig = await runLift(configured, ['serve', '--stdio']);
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toContain(
      "serve.caps names 'spreadsheets', which is no tool family. Families:",
    );
  }, 120_000);
});
