import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailWorld, ME, OPS, startMailWorld, writtenFiles } from '../apps/email/world.js';
import { connectStdio, type Workspace } from '../serve/support.js';
import { lift } from '../support/cli.js';
import type { RecordedRequest, ScriptedServer } from '../support/scripted-openai-server.js';
import { startScriptedOpenAIServer } from '../support/scripted-openai-server.js';
import { tempDir } from '../support/temp.js';
import { API_KEY_CANARY, type Harness, startHarness } from './harness.js';

const REQUEST = `save a draft to ${OPS.user} with the report attached, then send it`;

let world: MailWorld;
let report: string;

beforeAll(async () => {
  world = await startMailWorld();
  report = join(world.work, 'report.pdf');
  writeFileSync(report, randomBytes(30_000));
}, 120_000);
afterAll(async () => {
  await world?.stop();
});

/** The draft id in the tool results the model has read so far. */
function draftIdIn(request: RecordedRequest): string {
  const id = /d-[0-9a-f]{12}/.exec(request.rawBody)?.[0];
  if (!id) throw new Error('no draft id in the tool results');
  return id;
}

const save = (requestId: string, extra: Record<string, unknown> = {}) => ({
  name: 'email_draft_save',
  args: {
    to: [OPS.user],
    subject: 'Weekly report',
    body: 'Hello ops,\n\nthe weekly report is attached.',
    attachments: [report],
    request_id: requestId,
    ...extra,
  },
});

/** Scripts the model: save the draft, then send the draft id it read back. */
function scriptSaveThenSend(server: ScriptedServer, tag: string): void {
  server.enqueue({ kind: 'answer', toolCalls: [save(`draft-${tag}`)] }, (request) => ({
    kind: 'answer',
    toolCalls: [
      { name: 'email_draft_send', args: { draft_id: draftIdIn(request), request_id: `send-${tag}` } },
    ],
  }));
}

describe('the email send gate on the agent path', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({ tools: world.tools() });
    harness.runtime.store.secrets.set('email_password', ME.password);
    harness.runtime.store.secrets.set('ops_mail_password', OPS.password);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('holds the send in conversation; a change edits the draft and asks again; two yeses send it once', async () => {
    const { server, runtime } = harness;
    scriptSaveThenSend(server, 'talk-0001');
    server.enqueue(
      (request) => {
        expect(request.rawBody).toContain('asked for a change');
        return {
          kind: 'answer',
          toolCalls: [
            save('draft-talk-0002', { draft_id: draftIdIn(request), subject: 'Weekly report (final)' }),
          ],
        };
      },
      (request) => ({
        kind: 'answer',
        toolCalls: [
          { name: 'email_draft_send', args: { draft_id: draftIdIn(request), request_id: 'send-talk-0002' } },
        ],
      }),
      { kind: 'answer', text: 'Sent the final weekly report to ops.' },
    );
    const result = await harness.run(REQUEST, { replies: ["call it 'Weekly report (final)'", 'yes', 'yes'] });

    expect(result.outcome).toBe('answered');
    const held = harness.lines.filter((line) => line.startsWith('held   email_draft_send for a signature'));
    expect(held).toHaveLength(2);
    expect(held[0]).toContain('Subject: Weekly report\n');
    expect(held[1]).toContain('Subject: Weekly report (final)');
    expect(held[1]).toContain('Attachments: report.pdf (30,000 bytes)');
    expect(harness.asked).toHaveLength(3);
    expect(harness.asked[2]).toMatch(/cannot be undone/);
    expect((await runtime.store.approvals.list(['denied'])).map((approval) => approval.tool)).toEqual([
      'email_draft_send',
    ]);
    const [sent] = await runtime.store.approvals.list(['executed']);
    const envelope = JSON.parse(sent!.envelope!) as {
      ok: boolean;
      fields: { subject: string; message_id: string };
    };
    expect(envelope).toMatchObject({ ok: true, fields: { subject: 'Weekly report (final)' } });
    expect(await world.uidsWith(OPS, 'INBOX', envelope.fields.message_id)).toHaveLength(1);
    expect(result.row.modelCalls).toBe(5);
  });
});

describe('the email send gate from the command line and over MCP', () => {
  let server: ScriptedServer;
  let ws: Workspace;
  const folder = tempDir('lift-email-cli-');

  beforeAll(async () => {
    server = await startScriptedOpenAIServer();
    const home = join(folder.path, '.lift');
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(folder.path, 'lift.config.json'),
      // The operator lets an MCP client's person sign the send (by default a signature needs the console or lift approve).
      JSON.stringify({
        settings: { email: world.settings() },
        elicitation: { signature: ['email_draft_send'] },
      }),
    );
    ws = {
      cwd: folder.path,
      home,
      env: {
        LIFT_HOME: home,
        LIFT_MODEL: 'openai:gpt-test',
        LIFT_BASE_URL: server.baseURL,
        LIFT_SECRET_OPENAI_API_KEY: API_KEY_CANARY,
        ...world.env,
      },
      remove: () => folder.remove(),
    };
  });
  afterAll(async () => {
    await server?.close();
    folder.remove();
  });

  it('lift run leaves the send held with the draft as its preview, and lift approve sends it', async () => {
    scriptSaveThenSend(server, 'cli-0001');
    const run = await lift(['run', REQUEST, '--hedge-s', '0', '--max-turns', '3'], {
      cwd: ws.cwd,
      env: ws.env,
    });
    expect(run.code).toBe(4);
    expect(run.stdout).toMatch(
      /^held {3}email_draft_send for a signature: Send the saved draft d-[0-9a-f]{12} /m,
    );
    expect(run.stdout).toContain(`To: ${OPS.user}`);
    const pending = /^left pending: lift approve (ap_[0-9a-f]+) --phrase "([^"]+)"/m.exec(run.stdout);
    if (!pending) throw new Error(run.stdout);

    const listed = await lift(['approvals'], { cwd: ws.cwd, env: ws.env });
    expect(listed.stdout).toContain('    Attachments: report.pdf (30,000 bytes)');
    const approved = await lift(['approve', pending[1]!, '--phrase', pending[2]!, '--json'], {
      cwd: ws.cwd,
      env: ws.env,
    });
    expect(approved.code).toBe(0);
    const envelope = JSON.parse(approved.stdout) as { fields: { message_id: string; accepted: string[] } };
    expect(envelope.fields.accepted).toEqual([OPS.user]);
    expect(await world.uidsWith(OPS, 'INBOX', envelope.fields.message_id)).toHaveLength(1);
  }, 180_000);

  it('asks over MCP elicitation with the preview, takes a change, then sends with the phrase where lift.config allows it', async () => {
    const asked: ElicitRequest['params'][] = [];
    const answers: Array<Record<string, string>> = [{ change: 'Add ops-lead@example.test in cc' }];
    const client: Client = await connectStdio(ws, (params) => {
      asked.push(params);
      const next = answers.shift();
      if (next) return { action: 'accept', content: next };
      const schema = 'requestedSchema' in params ? params.requestedSchema : undefined;
      return { action: 'accept', content: { phrase: String(schema?.properties.phrase?.description ?? '') } };
    });
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
        return (result.structuredContent ?? {}) as Record<string, unknown> & {
          fields?: Record<string, unknown>;
          error?: Record<string, unknown>;
        };
      };
      const saved = await call('email_draft_save', save('draft-mcp-0001').args);
      const draftId = saved.fields?.draft_id as string;
      const changed = await call('email_draft_send', { draft_id: draftId, request_id: 'send-mcp-0001' });
      expect(changed.error).toMatchObject({ code: 'APPROVAL_DENIED' });
      expect(String(changed.error?.message)).toContain('Add ops-lead@example.test in cc');
      expect(asked[0]?.message).toContain('Subject: Weekly report');

      await call('email_draft_save', save('draft-mcp-0002', { draft_id: draftId, cc: [ME.user] }).args);
      const sent = await call('email_draft_send', { draft_id: draftId, request_id: 'send-mcp-0002' });
      expect(asked[1]?.message).toContain(`Cc: ${ME.user}`);
      expect(asked[1]?.message).toContain('type the confirmation phrase');
      expect(sent.fields).toMatchObject({ cc: [ME.user], accepted: [OPS.user, ME.user] });
      expect(await world.uidsWith(OPS, 'INBOX', sent.fields?.message_id as string)).toHaveLength(1);
    } finally {
      await client.close();
    }
    const written = writtenFiles(ws.home);
    for (const password of [ME.password, OPS.password, API_KEY_CANARY])
      expect(written).not.toContain(password);
  }, 180_000);
});
