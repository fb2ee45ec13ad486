import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY_CANARY, type Harness, startHarness, TOKEN_CANARY } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe.each(['openai', 'anthropic'] as const)('secrets and the model (%s-shaped server)', (shape) => {
  it('never sends a secret value in a request body, and keeps it out of the run log and ledger', async () => {
    harness = await startHarness({ shape });
    const { server, runtime } = harness;
    server.enqueue(
      // The tool echoes the token it used; the model is then asked to post with a reply quoting the token.
      { kind: 'answer', toolCalls: [{ name: 'fetch_profile', args: {} }] },
      {
        kind: 'answer',
        toolCalls: [{ name: 'post_message', args: { channel: '#team', path: '/tmp/profile.txt' } }],
      },
      { kind: 'answer', text: 'Done.' },
    );
    const result = await harness.run(`fetch my profile (my token is ${TOKEN_CANARY}) and post it to #team`, {
      replies: [`use ${TOKEN_CANARY} and post to #ops instead`],
    });

    expect(result.outcome).toBe('answered');
    expect(server.requests).toHaveLength(3);
    for (const request of server.requests) {
      expect(request.rawBody).not.toContain(TOKEN_CANARY);
      expect(request.rawBody).not.toContain(API_KEY_CANARY);
    }
    // The scrubbed forms did reach the model, so the text itself was sent.
    expect(server.requests[1]!.rawBody).toContain('[secret:api_token]');
    expect(server.requests[2]!.rawBody).toContain('use [secret:api_token] and post to #ops instead');
    // The key travelled only where it belongs: the auth header.
    const auth =
      shape === 'openai'
        ? server.requests[0]!.headers.authorization
        : server.requests[0]!.headers['x-api-key'];
    expect(String(auth)).toContain(API_KEY_CANARY);

    const runFiles = readdirSync(join(harness.home, 'runs')).map((file) =>
      readFileSync(join(harness!.home, 'runs', file), 'utf8'),
    );
    for (const text of runFiles) {
      expect(text).not.toContain(TOKEN_CANARY);
      expect(text).not.toContain(API_KEY_CANARY);
    }
    expect(JSON.stringify(result)).not.toContain(TOKEN_CANARY);
    expect(harness.lines.join('\n')).not.toContain(TOKEN_CANARY);
    const rows = runtime.store.db.prepare('SELECT * FROM agent_tasks').all();
    expect(JSON.stringify(rows)).not.toContain(TOKEN_CANARY);
  });
});
