import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractCard } from '../../src/contract/card.js';
import { defineTool } from '../../src/contract/define-tool.js';
import type { ErrorEnvelope } from '../../src/contract/envelope.js';
import { ERROR_CODES, errorAdvice, LiftError } from '../../src/contract/errors.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { tempDir } from '../support/temp.js';

describe('one rule for an error envelope’s retry and hint', () => {
  it('takes retry from the tool when it gives one, else from the catalogue', () => {
    expect(errorAdvice('CONFLICT').retry).toBe(ERROR_CODES.CONFLICT.retry);
    expect(errorAdvice('CONFLICT', {}, { retry: 'no', hint: 'Read the row first.' }).retry).toBe('no');
    expect(errorAdvice('CONFLICT', {}, { hint: 'Read the row first.' }).retry).toBe('after_check');
  });

  it('puts the thrown hint first and keeps the tool’s beside it, once', () => {
    const tool = { hint: 'Check that the journal named in settings.hledger.journal exists.' };
    expect(errorAdvice('PROGRAM_FAILED', { hint: 'hledger said: no such file' }, tool).hint).toBe(
      'hledger said: no such file Check that the journal named in settings.hledger.journal exists.',
    );
    expect(errorAdvice('PROGRAM_FAILED', { hint: `Earlier: ${tool.hint}` }, tool).hint).toBe(
      `Earlier: ${tool.hint}`,
    );
    expect(errorAdvice('PROGRAM_FAILED', {}, tool).hint).toBe(tool.hint);
    expect(errorAdvice('PROGRAM_FAILED', { hint: '  ' }).hint).toBe(ERROR_CODES.PROGRAM_FAILED.hint);
  });
});

describe('the rule where envelopes are made', async () => {
  const dir = tempDir();
  const failing = defineTool({
    name: 'journal_touch',
    description: 'Touches a journal; fails as its program would.',
    rung: 'cli',
    input: z.strictObject({ fail_with: z.enum(['conflict', 'program']).describe('Which failure.') }),
    output: z.object({ touched: z.boolean().describe('Always true.') }),
    errors: {
      CONFLICT: { retry: 'no', hint: 'Someone else edits the journal; ask before writing again.' },
      PROGRAM_FAILED: { hint: 'Check settings.hledger.journal.' },
    },
    effect: { class: 'read' },
    timeout: { deadlineMs: 5_000 },
    run: async ({ fail_with }) => {
      if (fail_with === 'conflict') throw new LiftError('CONFLICT', 'The journal changed.');
      throw new LiftError('PROGRAM_FAILED', 'hledger exited 1.', {
        hint: 'hledger: no such file main.journal',
      });
    },
  });
  const runtime = new Runtime({ home: join(dir.path, 'home'), tools: [failing] });
  afterAll(async () => {
    await runtime.close();
    dir.remove();
  });

  it('gives the call the tool’s retry and both hints, and the tool card says the same', async () => {
    const conflict = (await runtime.invoke('journal_touch', { fail_with: 'conflict' })) as ErrorEnvelope;
    expect(conflict.error).toMatchObject({
      code: 'CONFLICT',
      retry: 'no',
      hint: 'Someone else edits the journal; ask before writing again.',
    });
    const failed = (await runtime.invoke('journal_touch', { fail_with: 'program' })) as ErrorEnvelope;
    expect(failed.error.hint).toBe('hledger: no such file main.journal Check settings.hledger.journal.');
    expect(contractCard(failing)).toContain(
      'CONFLICT · retry: no · hint: Someone else edits the journal; ask before writing again.',
    );
  });
});
