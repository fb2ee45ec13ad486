import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import type { PendingEnvelope, SuccessEnvelope } from '../../src/contract/envelope.js';
import { runWrapped } from '../../src/rungs/cli/run-wrapped.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { CANARY, leakedForms } from './canary.js';

const PROGRAM = join(import.meta.dirname, '..', 'fixtures', 'cli', 'print-secret-forms.py');
const dir = tempDir('lift-secret-forms-');
afterAll(() => dir.remove());

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}

/** A tool that prints the secret in every form through a real program and returns the output. */
const printForms = defineTool({
  name: 'forms_print',
  description: 'Runs a program that prints a token in many encodings. Returns its output (tests scrubbing).',
  rung: 'cli',
  input: z.strictObject({
    copies: z.number().int().min(1).max(200).default(1),
    request_id: z.string().optional(),
  }),
  output: z.object({ lines: z.array(z.string()) }),
  cap: { chars: 2_000 },
  effect: { class: 'read' },
  timeout: { deadlineMs: 20_000 },
  run: async (input, ctx) => {
    const result = await runWrapped({
      program: 'python3',
      args: [PROGRAM, ctx.secret('canary_token')],
      deadline: ctx.deadline,
      signal: ctx.signal,
    });
    const lines = result.stdout.text.trim().split('\n');
    return {
      fields: { lines: Array.from({ length: input.copies }, () => lines).flat() },
      summary: lines[2] ?? '',
    };
  },
});

/** A held call whose preview shows the token in encoded forms. */
const sendForms = defineTool({
  name: 'forms_send',
  description: 'Sends a signed callback URL to the partner (held for review). Returns nothing.',
  rung: 'api',
  input: z.strictObject({ callback: z.string().max(2_000) }),
  output: z.object({}),
  effect: { class: 'visible' },
  timeout: { deadlineMs: 5_000 },
  preview: (input) =>
    `Send ${input.callback} with Authorization: Basic ${Buffer.from(`deploy:${CANARY}`).toString('base64')}`,
  run: async () => ({ fields: {}, summary: 'sent' }),
});

describe('secrets printed by a program in encoded forms', () => {
  const env = { LIFT_SECRET_CANARY_TOKEN: CANARY };

  it('are masked in lift exec envelopes and the run log: base64, base64url, URL-encoded, hex, JSON- and HTML-escaped', async () => {
    const home = join(dir.path, 'exec');
    const result = await lift(['exec', '--json', '--', 'python3', PROGRAM, CANARY], {
      cwd: dir.path,
      env: { ...env, LIFT_HOME: home },
    });
    expect(result.code).toBe(0);
    expect(leakedForms(result.stdout + result.stderr)).toEqual([]);
    for (const form of ['base64', 'base64url', 'url', 'hex', 'html'])
      expect(result.stdout).toContain(`[secret:canary_token:${form}]`);
    expect(result.stdout).toContain('[secret:canary_token]');
    // PHP's `\/`, Python's `\u00fc`, Go's `\u0026`: each line keeps its words, the secret is gone.
    const printed = (JSON.parse(result.stdout) as { fields: { stdout: string } }).fields.stdout;
    expect(printed).toContain('php {"token":"[secret:canary_token]"}');
    expect(printed).toContain('python {"token": "[secret:canary_token]"}');
    expect(printed).toContain('html <input value="[secret:canary_token:html]">');
    expect(printed).toContain('path https://partner.example/files/[secret:canary_token:url]');
    for (const text of filesUnder(join(home, 'runs'))) expect(leakedForms(text)).toEqual([]);
  });

  it('are masked in the error of a program that fails printing them to standard error', async () => {
    const home = join(dir.path, 'exec-fail');
    const result = await lift(['exec', '--json', '--', 'python3', PROGRAM, CANARY, 'fail'], {
      cwd: dir.path,
      env: { ...env, LIFT_HOME: home },
    });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toContain('[secret:canary_token:base64]');
    expect(leakedForms(result.stdout + result.stderr)).toEqual([]);
    for (const text of filesUnder(join(home, 'runs'))) expect(leakedForms(text)).toEqual([]);
  });

  it('are masked in envelopes, run logs, overflow files and held previews of tools', async () => {
    const home = join(dir.path, 'tools');
    const runtime = new Runtime({ home, env, tools: [printForms, sendForms] });
    try {
      const capped = (await runtime.invoke('forms_print', { copies: 40 })) as SuccessEnvelope;
      expect(capped.ok).toBe(true);
      expect(capped.truncated).toBe(true);
      const overflow = readFileSync(capped.files.full!, 'utf8');
      // 40 copies of the 20 lines the program prints.
      expect((JSON.parse(overflow) as { lines: string[] }).lines).toHaveLength(800);
      expect(leakedForms(overflow)).toEqual([]);
      expect(leakedForms(JSON.stringify(capped))).toEqual([]);

      const held = (await runtime.invoke('forms_send', {
        callback: `https://partner.example/cb?token=${encodeURIComponent(CANARY)}`,
      })) as PendingEnvelope;
      expect(held.pending.preview).toContain('[secret:canary_token:url]');
      expect(held.pending.preview).toContain('[secret:canary_token:base64]');
      expect(leakedForms(JSON.stringify(held))).toEqual([]);
      const stored = runtime.store.db.prepare('SELECT input, preview FROM approvals').all();
      expect(leakedForms(JSON.stringify(stored))).toEqual([]);
    } finally {
      await runtime.close();
    }
    for (const text of filesUnder(join(home, 'runs'))) expect(leakedForms(text)).toEqual([]);
  });
});
