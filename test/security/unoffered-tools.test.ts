import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, offeredTools, startHarness } from '../agent/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** write_note is in the notes group: a request about chat does not offer it. */
const notesWritten = (h: Harness) => existsSync(join(h.runtime.outputDir, 'write_note', 'planted.txt'));
const plant = { title: 'Planted', text: 'written by a tool nobody offered' };

describe('lift run refuses a call to a tool the shortlist did not offer', () => {
  it('does not run it, and answers the model with the tools it had', async () => {
    harness = await startHarness();
    harness.server.enqueue(
      { kind: 'answer', toolCalls: [{ name: 'write_note', args: plant }] },
      { kind: 'answer', text: 'I could not write the note.' },
    );
    const result = await harness.run('post the summary to #team on slack');

    const offered = offeredTools(harness.server.requests[0]);
    expect(offered).not.toContain('write_note');
    expect(notesWritten(harness)).toBe(false);
    expect(result.outcome).toBe('answered');
    const next = harness.server.requests[1]!.rawBody;
    expect(next).toContain(
      `Model tried to call unavailable tool 'write_note'. Available tools: ${offered.join(', ')}.`,
    );
    expect(result.row).toMatchObject({ toolCalls: 0 });
    const events = (await harness.runtime.store.runs.events(result.runId)).map((event) => event.type);
    expect(events).toContain('tool-call-refused');
  });

  it('refuses a chain whose step names a tool that was not offered, running none of its steps', async () => {
    harness = await startHarness();
    harness.server.enqueue(
      {
        kind: 'answer',
        toolCalls: [
          {
            name: 'run_chain',
            args: {
              steps: [
                { id: 'post', tool: 'post_message', args: { channel: '#team', path: '/tmp/a.txt' } },
                { id: 'note', tool: 'write_note', args: plant },
              ],
            },
          },
        ],
      },
      { kind: 'answer', text: 'Nothing ran.' },
    );
    await harness.run('post the summary to #team on slack', { autoApprove: true });

    expect(offeredTools(harness.server.requests[0])).toContain('run_chain');
    expect(notesWritten(harness)).toBe(false);
    expect(existsSync(join(harness.runtime.outputDir, 'post_message', 'outbox.log'))).toBe(false);
    expect(harness.server.requests[1]!.rawBody).toContain(
      "run_chain step: Model tried to call unavailable tool 'write_note'.",
    );
  });

  it('still runs a tool that was offered', async () => {
    harness = await startHarness();
    harness.server.enqueue(
      { kind: 'answer', toolCalls: [{ name: 'write_note', args: plant }] },
      { kind: 'answer', text: 'Written.' },
    );
    await harness.run('write a note called planted');
    expect(notesWritten(harness)).toBe(true);
  });
});
