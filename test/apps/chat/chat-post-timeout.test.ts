import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isError, isPending, isSuccess } from '../../../src/contract/envelope.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';
import { type ChatWorld, ME, startChatWorld } from './world.js';

const REQUEST_ID = 'post-stall-0001';

/**
 * A TCP relay in front of Prosody that, once a client sends the stanza carrying `marker`, passes
 * nothing more from the server back to that client: the post reaches the room, its answer never
 * reaches Lift. The one moment where the sender cannot know whether the message went.
 */
async function stallingRelay(port: number, marker: string): Promise<{ port: number; close(): void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port });
    sockets.add(client).add(upstream);
    let stalled = false;
    client.on('data', (chunk) => {
      if (chunk.toString('utf8').includes(marker)) stalled = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!stalled) client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('relay has no port');
  return {
    port: address.port,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

let world: ChatWorld;
let relay: Awaited<ReturnType<typeof stallingRelay>>;
let stalled: Runtime;
let direct: Runtime;
const homes = [tempDir('lift-chat-stall-'), tempDir('lift-chat-direct-')];

beforeAll(async () => {
  world = await startChatWorld();
  relay = await stallingRelay(world.prosody.c2sPort, `id="${REQUEST_ID}"`);
  const server = { host: '127.0.0.1', port: relay.port, tls: 'none' as const };
  stalled = new Runtime({
    home: homes[0]!.path,
    env: world.env(ME),
    tools: world.tools(ME, { server, deadlineMs: 8_000 }),
  });
  direct = new Runtime({ home: homes[1]!.path, env: world.env(ME), tools: world.tools(ME) });
});
afterAll(async () => {
  await stalled?.close();
  await direct?.close();
  relay?.close();
  await world?.stop();
  for (const home of homes) home.remove();
});

describe('a post whose outcome is unknown', () => {
  it('times out with the settle read, refuses a blind retry, and chat_history settles it', async () => {
    const input = { to: '#team', message: 'Posted into silence.', request_id: REQUEST_ID };
    const held = await stalled.invoke('chat_post', input);
    if (!isPending(held)) throw new Error(JSON.stringify(held));

    const timedOut = await stalled.approve(held.pending.approval_id, { by: 'ana (reviewer)' });
    if (!isError(timedOut)) throw new Error(JSON.stringify(timedOut));
    expect(timedOut.error).toMatchObject({ code: 'TIMEOUT', outcome: 'unknown', retry: 'after_check' });
    expect(timedOut.error.settle).toMatch(/^chat_history with the same to and message_id/);
    expect(JSON.stringify(timedOut)).not.toContain(ME.password);

    const retried = await stalled.invoke('chat_post', input);
    expect(isError(retried) && retried.error).toMatchObject({
      code: 'OUTCOME_UNKNOWN',
      settle: timedOut.error.settle,
    });

    // The room got it: the settle read the error names finds it, exactly once, by the request id.
    const settled = await direct.invoke('chat_history', { to: '#team', message_id: REQUEST_ID });
    if (!isSuccess(settled)) throw new Error(JSON.stringify(settled));
    const messages = settled.fields.messages as Array<{ body: string }>;
    expect(messages.map((message) => message.body)).toEqual(['Posted into silence.']);
  });
});
