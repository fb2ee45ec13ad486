import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolContext } from '../../src/contract/context.js';
import { defineTool } from '../../src/contract/define-tool.js';
import type { EffectClass } from '../../src/contract/effects.js';
import type { ErrorEnvelope } from '../../src/contract/envelope.js';
import { runWrapped } from '../../src/rungs/cli/run-wrapped.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { tempDir } from '../support/temp.js';

/** Never settles on its own: the call's deadline ends it. */
const untilCancelled = (ctx: ToolContext) =>
  new Promise<never>((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));

/**
 * A tool that runs `true` through the command-line rung without calling ctx.markStarted, then
 * outlives its deadline: what a write tool that forgot the call used to report as not_started.
 */
function forgetful(name: string, effect: EffectClass, effectStarts?: 'confirmation') {
  return defineTool({
    name,
    description: 'Runs true, then waits past its deadline.',
    rung: 'cli',
    input: z.strictObject({}),
    output: z.object({ ran: z.boolean().describe('Never returned.') }),
    effect: { class: effect },
    timeout: { deadlineMs: 1_500 },
    run: async (_input, ctx) => {
      await runWrapped({
        program: 'true',
        deadline: ctx.deadline,
        signal: ctx.signal,
        input: '',
        ...(effectStarts ? { effectStarts } : {}),
      });
      return untilCancelled(ctx);
    },
  });
}

describe('a program a write tool starts marks the call started by default', async () => {
  const dir = tempDir();
  const runtime = new Runtime({
    home: join(dir.path, 'home'),
    tools: [
      forgetful('forgetful_write', 'reversible'),
      forgetful('forgetful_read', 'read'),
      forgetful('reading_write', 'reversible', 'confirmation'),
    ],
  });
  afterAll(async () => {
    await runtime.close();
    dir.remove();
  });
  const outcome = async (name: string) => {
    const envelope = (await runtime.invoke(name, {})) as ErrorEnvelope;
    expect(envelope.error.code).toBe('TIMEOUT');
    return envelope.error.outcome;
  };

  it('reports a write that timed out after its program ran as unknown, not as never started', async () => {
    expect(await outcome('forgetful_write')).toBe('unknown');
  });

  it('leaves a read, and a write whose program only reads, not started', async () => {
    expect(await outcome('forgetful_read')).toBe('not_started');
    expect(await outcome('reading_write')).toBe('not_started');
  });
});
