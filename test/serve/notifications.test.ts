import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  connectHttp,
  connectStdio,
  type HttpServer,
  startHttp,
  TOKEN,
  type Workspace,
  workspace,
} from './support.js';

const CANARY = 'canary-board-token-5e1d7a';

interface Connected {
  client: Client;
  stop(): Promise<void>;
}

const TRANSPORTS: Record<'stdio' | 'http', (ws: Workspace) => Promise<Connected>> = {
  stdio: async (ws) => {
    const client = await connectStdio(ws);
    return { client, stop: () => client.close() };
  },
  http: async (ws) => {
    const server: HttpServer = await startHttp(ws);
    const client = await connectHttp(server.url, TOKEN);
    return {
      client,
      stop: async () => {
        await client.close();
        await server.stop();
      },
    };
  },
};

for (const [transport, connect] of Object.entries(TRANSPORTS)) {
  describe(`lift serve --${transport}: the run log as MCP log messages and progress`, () => {
    let ws: Workspace;
    let connected: Connected;
    let messages: LoggingMessageNotification['params'][] = [];

    beforeAll(async () => {
      ws = workspace({ token: true });
      ws.env.LIFT_SECRET_BOARD_TOKEN = CANARY;
      connected = await connect(ws);
      connected.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        messages.push(notification.params);
      });
    }, 120_000);

    afterAll(async () => {
      await connected.stop();
      ws.remove();
    });

    beforeEach(() => {
      messages = [];
    });

    /** Messages arrive before the call's result on the same stream; a short wait covers the slowest path. */
    const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

    it('tells a client that set no level only of failures, as warnings naming the code', async () => {
      await connected.client.callTool({ name: 'note_read', arguments: { id: 'N-001' } });
      await connected.client.callTool({ name: 'note_read', arguments: { id: 'nope' } });
      await settle();
      expect(messages).toEqual([
        expect.objectContaining({
          level: 'warning',
          logger: 'lift.note_read',
          data: expect.objectContaining({ type: 'call-failed', code: 'BAD_INPUT' }),
        }),
      ]);
    });

    it('sends what the run log records at the level the client sets, and nothing below it', async () => {
      await connected.client.setLoggingLevel('info');
      await connected.client.callTool({ name: 'note_import', arguments: { count: 2, pause_ms: 0 } });
      await settle();
      const types = messages.map((message) => (message.data as { type: string }).type);
      expect(types).toEqual([
        'call-start',
        'progress-reported',
        'action-performed',
        'progress-reported',
        'progress-reported',
        'call-end',
      ]);
      expect(messages.every((message) => message.level === 'info')).toBe(true);
      expect(
        messages.every((message) => (message.data as { run_id: string }).run_id.startsWith('run_')),
      ).toBe(true);

      messages = [];
      await connected.client.setLoggingLevel('debug');
      await connected.client.callTool({ name: 'note_read', arguments: { id: 'N-002' } });
      await settle();
      expect(messages.map((message) => message.level)).toContain('debug');

      messages = [];
      await connected.client.setLoggingLevel('error');
      await connected.client.callTool({ name: 'note_read', arguments: { id: 'nope' } });
      await settle();
      expect(messages).toEqual([]);
    });

    it('reports progress from the events of a long call when the client sent a token, and stops at the result', async () => {
      await connected.client.setLoggingLevel('info');
      const progress: Progress[] = [];
      let answered = false;
      const result = await connected.client.callTool(
        { name: 'note_import', arguments: { count: 4, pause_ms: 120 } },
        undefined,
        {
          timeout: 30_000,
          onprogress: (update) => {
            expect(answered).toBe(false);
            progress.push(update);
          },
        },
      );
      answered = true;
      expect(result.isError).toBe(false);
      const values = progress.map((update) => update.progress);
      expect(values).toEqual([...values].sort((a, b) => a - b));
      expect(new Set(values).size).toBe(values.length);
      // The SDK client handles a notification a microtask after it reads it, so one that shares
      // a read with the result (the last step, over stdio) can reach it after the call is over.
      const steps = progress.filter((update) => update.message?.startsWith('Step '));
      expect(steps.slice(0, 3)).toEqual([
        { progress: 1, total: 4, message: 'Step 1 of 4: note imported' },
        { progress: 2, total: 4, message: 'Step 2 of 4: note imported' },
        { progress: 3, total: 4, message: 'Step 3 of 4: note imported' },
      ]);
      expect(progress[0]).toEqual({ progress: 0, message: 'Starting note_import' });
      // What came between the start and the first row sits between them, already out of 4.
      for (const update of progress.slice(1, progress.indexOf(steps[0]!)))
        expect(update).toMatchObject({ progress: expect.any(Number), total: 4 });
      await settle();
      expect(JSON.stringify([progress, messages])).not.toContain(CANARY);
      expect(JSON.stringify(messages)).toContain('[secret:board_token]');
    });

    it.runIf(transport === 'stdio')(
      'tells a client what build_deck is doing while LibreOffice renders',
      async () => {
        const progress: Progress[] = [];
        const result = await connected.client.callTool(
          {
            name: 'build_deck',
            arguments: { outline: { title: 'Progress check', slides: [{ title: 'One' }] } },
          },
          undefined,
          { timeout: 170_000, onprogress: (update) => progress.push(update) },
        );
        expect(result.isError, JSON.stringify(result.structuredContent)).toBe(false);
        const said = progress.map((update) => update.message ?? '');
        // Before LibreOffice renders, the client hears that it does (two events a moment apart
        // may fold into the newer one: progress is sent at most every 50 ms).
        expect(said[0]).toBe('Starting build_deck');
        expect(
          said.some((message) => /^(Wrote a deck of 1 slide|LibreOffice renders the deck)$/.test(message)),
        ).toBe(true);
      },
      180_000,
    );
  });
}
