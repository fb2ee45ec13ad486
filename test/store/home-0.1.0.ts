/**
 * The Lift home that Lift 0.1.0 left (test/fixtures/store/home-0.1.0, made by
 * make-home-0.1.0.ts), copied to a temporary folder for each test, and the tools it was
 * made with, declared again under the same names for today's Lift.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import { RequestIdSchema } from '../../src/contract/request-id.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'store', 'home-0.1.0');

export interface OldHome {
  home: string;
  /** The board the fixture tools write, one line per notice. */
  system: string;
  /** A held call whose input holds the canary secret. */
  held: string;
  /** An approved call whose approver died before sending anything. */
  stuck: string;
  canary: string;
}

export function copyOldHome(into: string): OldHome {
  const home = join(into, 'home');
  cpSync(FIXTURE, home, { recursive: true });
  const made = JSON.parse(readFileSync(join(home, 'fixture.json'), 'utf8')) as Omit<
    OldHome,
    'home' | 'system'
  >;
  return { home, system: join(home, 'system.json'), ...made };
}

export function board(system: string): string[] {
  return existsSync(system) ? (JSON.parse(readFileSync(system, 'utf8')) as string[]) : [];
}

function boardOf(): string {
  const path = process.env.LIFT_TEST_SYSTEM;
  if (!path) throw new Error('LIFT_TEST_SYSTEM must name the board file');
  return path;
}

export const noticePublish = defineTool({
  name: 'fixture_notice_publish',
  description: 'Publishes a notice to the fixture board. Returns its number.',
  rung: 'file',
  input: z.strictObject({ text: z.string().min(1).max(200), request_id: RequestIdSchema }),
  output: z.object({ number: z.number().int() }),
  effect: { class: 'visible' },
  timeout: { deadlineMs: 5_000 },
  preview: (input) => `Publish "${input.text}"`,
  settleRead: async (input) => {
    const number = board(boardOf()).indexOf(`${input.request_id} ${input.text}`) + 1;
    return number > 0 ? { fields: { number }, summary: `Notice ${number} was published before` } : undefined;
  },
  run: async (input, ctx) => {
    ctx.markStarted();
    const notices = [...board(boardOf()), `${input.request_id} ${input.text}`];
    writeFileSync(boardOf(), JSON.stringify(notices));
    return { fields: { number: notices.length }, summary: `Published notice ${notices.length}` };
  },
});

export const recordCreate = defineTool({
  name: 'fixture_record_create',
  description: 'Creates a record on the fixture board without a gate. Returns its number.',
  rung: 'file',
  input: z.strictObject({ name: z.string().min(1).max(40), request_id: RequestIdSchema }),
  output: z.object({ number: z.number().int() }),
  effect: { class: 'reversible' },
  timeout: { deadlineMs: 5_000 },
  run: async (input) => {
    const notices = [...board(boardOf()), `${input.request_id} record ${input.name}`];
    writeFileSync(boardOf(), JSON.stringify(notices));
    return { fields: { number: notices.length }, summary: `Created record ${notices.length}` };
  },
});

export const tools = [noticePublish, recordCreate];
