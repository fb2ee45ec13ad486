import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, type ElicitRequest, ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMcpTools } from '../../src/serve/to-mcp-tools.js';
import { connectStdio, runLift, servedTools, type Workspace, workspace } from './support.js';

// biome-ignore lint/suspicious/noExplicitAny: assertions read envelopes field by field
type Envelope = Record<string, any>;

async function call(client: Client, name: string, input: Record<string, unknown>, signal?: AbortSignal) {
  const result = (await client.callTool({ name, arguments: input }, undefined, {
    timeout: 30_000,
    ...(signal ? { signal } : {}),
  })) as CallToolResult;
  const text = result.content.find((item) => item.type === 'text');
  return {
    result,
    envelope: result.structuredContent as Envelope,
    text: text?.type === 'text' ? text.text : '',
  };
}

function published(ws: Workspace): string[] {
  const log = join(ws.home, 'out', 'note_publish', 'published.log');
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
}

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('lift serve --stdio with the SDK client', () => {
  let ws: Workspace;
  let client: Client;
  const clients: Client[] = [];

  beforeAll(async () => {
    ws = workspace();
    client = await connectStdio(ws);
    clients.push(client);
    await client.listTools();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((each) => each.close()));
    ws.remove();
  });

  it('lists every tool with the input schema, output schema and annotations of its contract', async () => {
    const { tools: listed } = await client.listTools();
    const served = toMcpTools(await servedTools());
    expect(listed.map((tool) => tool.name)).toEqual(served.map((tool) => tool.name));
    for (const contract of served) {
      const tool = listed.find((candidate) => candidate.name === contract.name)!;
      expect(ToolSchema.safeParse(tool).success, tool.name).toBe(true);
      expect(Object.keys(tool.annotations ?? {}).sort()).toEqual([
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
        'readOnlyHint',
        'title',
      ]);
      expect(tool.inputSchema).toEqual(contract.inputSchema);
      expect(tool.outputSchema).toEqual(contract.outputSchema);
      expect(tool.annotations).toEqual(contract.annotations);
      expect(tool.title).toBe(contract.title);
    }
  });

  it('calls a read: the envelope as structured content, and as text a summary line and the same JSON', async () => {
    const { result, envelope, text } = await call(client, 'note_read', { id: 'N-042' });
    expect(result.isError).toBe(false);
    expect(envelope).toMatchObject({
      ok: true,
      tool: 'note_read',
      fields: { id: 'N-042', text: 'note N-042' },
      effect: 'none',
    });
    expect(text).toBe('ok: Read N-042.');
    // A client that reads only `content` still gets all of it (2025-06-18: SHOULD).
    const texts = result.content.flatMap((item) => (item.type === 'text' ? [item.text] : []));
    expect(texts).toHaveLength(2);
    expect(JSON.parse(texts[1] ?? '')).toEqual(envelope);
  });

  it('returns bad input as an MCP tool error carrying BAD_INPUT and the hint', async () => {
    const { result, envelope, text } = await call(client, 'note_tag', {
      request_id: 'req-1',
      id: 'N-001',
      tag: 'maybe',
      weight: 99,
    });
    expect(result.isError).toBe(true);
    expect(envelope.error).toMatchObject({ code: 'BAD_INPUT', retry: 'no', outcome: 'not_started' });
    expect(envelope.error.details.fields).toEqual(['tag', 'weight']);
    expect(text).toContain('Hint: Fix');
    expect(text).toContain('A correct call: {"tool":"note_tag"');
  });

  it('returns a call that runs past its deadline as a TIMEOUT tool error', async () => {
    const { result, envelope } = await call(client, 'note_wait', { marker: 'deadline-1', ms: 20_000 });
    expect(result.isError).toBe(true);
    expect(envelope.error).toMatchObject({ code: 'TIMEOUT', retry: 'after_check' });
    expect(readFileSync(join(ws.home, 'out', 'note_wait', 'deadline-1.aborted'), 'utf8')).toBe('TIMEOUT');
  });

  it('answers an unknown tool with a protocol error naming the tools there are', async () => {
    await expect(client.callTool({ name: 'note_fly', arguments: {} })).rejects.toThrow(
      /^MCP error -32602: Unknown tool 'note_fly'. Available tools: .*note_delete, note_import, note_list.*approval_status/,
    );
  });

  it('aborts the tool when the client cancels the call', async () => {
    const controller = new AbortController();
    const pending = call(client, 'note_wait', { marker: 'cancel-1', ms: 900 }, controller.signal);
    const marker = join(ws.home, 'out', 'note_wait', 'cancel-1.aborted');
    // Cancelled once the tool runs: a cancel that arrives before the call is never matched to it.
    await waitFor(() => existsSync(join(ws.home, 'out', 'note_wait', 'cancel-1.started')));
    controller.abort('the person pressed stop');
    await expect(pending).rejects.toThrow();
    // The server writes the reason after it creates the file: wait for the reason, not the file.
    await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8').length > 0);
    expect(readFileSync(marker, 'utf8')).toBe('CANCELLED');
  });

  it('holds a review-gated write, and `lift approve` runs it once; the repeat comes back existing', async () => {
    const input = { request_id: 'req-held-1', text: 'Standup at 10:00' };
    const held = await call(client, 'note_publish', input);
    // Not done, and no reader can take it for done: an isError result that says so first.
    expect(held.result.isError).toBe(true);
    expect(held.text).toMatch(/^PENDING APPROVAL, NOT RUN: note_publish is held for review/);
    expect(held.envelope.pending).toMatchObject({
      gate: 'review',
      preview: 'Publish "Standup at 10:00" to the team board',
    });
    const id = held.envelope.pending.approval_id as string;
    expect(held.text).toContain(`lift approve ${id}`);
    expect(held.text).toContain(`approval_status {"approval_id":"${id}"}`);
    expect(published(ws)).toEqual([]);

    // The client follows the held call over MCP: a tool and a resource.
    const waiting = await call(client, 'approval_status', { approval_id: id });
    expect(waiting.envelope.fields).toMatchObject({
      approval_id: id,
      state: 'pending',
      tool: 'note_publish',
    });
    const link = held.result.content.find((item) => item.type === 'resource_link');
    expect(link).toMatchObject({ uri: `lift://approvals/${id}`, mimeType: 'application/json' });
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(`lift://approvals/${id}`);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain(
      'lift://approvals/{approval_id}',
    );

    const approved = await runLift(ws, ['approve', id]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(published(ws)).toEqual(['req-held-1 Standup at 10:00']);

    const done = await call(client, 'approval_status', { approval_id: id });
    expect(done.envelope.fields).toMatchObject({
      state: 'executed',
      result: { ok: true, tool: 'note_publish', fields: { board_id: 'B-req-held-1' } },
    });
    const read = await client.readResource({ uri: `lift://approvals/${id}` });
    const content = read.contents[0];
    expect(JSON.parse(content && 'text' in content ? content.text : '{}')).toMatchObject({
      state: 'executed',
    });
    const unknown = await call(client, 'approval_status', { approval_id: 'ap_000000000000' });
    expect(unknown.envelope.error).toMatchObject({ code: 'APPROVAL_NOT_FOUND' });

    const again = await call(client, 'note_publish', input);
    expect(again.envelope).toMatchObject({
      ok: true,
      effect: 'existing',
      fields: { board_id: 'B-req-held-1' },
    });
    expect(published(ws)).toHaveLength(1);
  });

  it('offers a result too large for its cap as a resource instead of pushing it into the result', async () => {
    const { result, envelope } = await call(client, 'note_list', { count: 400 });
    expect(envelope.truncated).toBe(true);
    expect(envelope.fields.notes.length).toBeLessThan(400);
    const link = result.content.find((item) => item.type === 'resource_link');
    expect(link).toMatchObject({ type: 'resource_link', mimeType: 'application/json' });
    const uri = link?.type === 'resource_link' ? link.uri : '';
    expect(uri).toBe(`file://${envelope.files.full}`);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(uri);
    const read = await client.readResource({ uri });
    const content = read.contents[0];
    const full = JSON.parse(content && 'text' in content ? content.text : '{}') as { notes: unknown[] };
    expect(full.notes).toHaveLength(400);
    await expect(client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(
      /Only files named by this server's results/,
    );
  });

  describe('when the client supports elicitation', () => {
    const asked: ElicitRequest['params'][] = [];
    let answer: 'accept' | 'decline' = 'accept';
    let person: Client;

    beforeAll(async () => {
      person = await connectStdio(ws, (params) => {
        asked.push(params);
        if (answer === 'decline') return { action: 'decline' };
        const schema = 'requestedSchema' in params ? params.requestedSchema : undefined;
        const phrase = schema?.properties.phrase?.description;
        return { action: 'accept', content: phrase ? { phrase } : { approve: true } };
      });
      clients.push(person);
      await person.listTools();
    }, 120_000);

    it('asks the person and runs the held call on yes', async () => {
      answer = 'accept';
      const { result, envelope } = await call(person, 'note_publish', {
        request_id: 'req-asked-1',
        text: 'Lunch at noon',
      });
      expect(result.isError).toBe(false);
      expect(envelope).toMatchObject({ ok: true, effect: 'changed', fields: { board_id: 'B-req-asked-1' } });
      expect(asked.at(-1)?.message).toContain('Publish "Lunch at noon" to the team board');
      expect(published(ws)).toContain('req-asked-1 Lunch at noon');
    });

    it('leaves a signature gate held for the console or lift approve, and never asks the client', async () => {
      answer = 'accept';
      const before = asked.length;
      const { result, envelope } = await call(person, 'note_delete', {
        request_id: 'req-del-0',
        id: 'N-007',
      });
      // The client would have said yes to anything: it is the agent's own, and is not asked to sign.
      expect(asked).toHaveLength(before);
      expect(result.isError).toBe(true);
      expect(envelope).toMatchObject({
        ok: false,
        error: { code: 'APPROVAL_PENDING' },
        pending: { gate: 'signature' },
      });
      const id = envelope.pending.approval_id as string;
      const status = await call(person, 'approval_status', { approval_id: id });
      expect(status.envelope.fields).toMatchObject({ state: 'pending' });
      const phrase = envelope.pending.confirmation_phrase as string;
      const signed = await runLift(ws, ['approve', id, '--phrase', phrase, '--json']);
      expect(signed.code, signed.stderr).toBe(0);
      expect(JSON.parse(signed.stdout)).toMatchObject({ ok: true, fields: { deleted: 'N-007' } });
    });

    it('asks for the confirmation phrase of a signature gate where lift.config allows it for the tool, and runs the call with it', async () => {
      const allowed = workspace({ config: { elicitation: { signature: ['note_delete'] } } });
      const signer = await connectStdio(allowed, (params) => {
        asked.push(params);
        const schema = 'requestedSchema' in params ? params.requestedSchema : undefined;
        return { action: 'accept', content: { phrase: schema?.properties.phrase?.description ?? '' } };
      });
      try {
        const { envelope } = await call(signer, 'note_delete', { request_id: 'req-del-1', id: 'N-007' });
        expect(envelope).toMatchObject({ ok: true, fields: { deleted: 'N-007' } });
        const message = asked.at(-1)?.message ?? '';
        expect(message).toContain('type the confirmation phrase');
        // The phrase binds the input: the tool and the input's digest, shown with the preview.
        expect(message).toMatch(/Input digest: ([0-9a-f]{8})\n[\s\S]*phrase: note_delete \1$/);
      } finally {
        await signer.close();
        allowed.remove();
      }
    });

    it('denies the held call when the person says no', async () => {
      answer = 'decline';
      const { result, envelope } = await call(person, 'note_publish', {
        request_id: 'req-asked-2',
        text: 'Party',
      });
      expect(result.isError).toBe(true);
      expect(envelope.error.code).toBe('APPROVAL_DENIED');
      expect(published(ws).join('\n')).not.toContain('Party');
    });
  });
});
