/**
 * Small but real tools for the foundation tests: they write and read a JSON "system" file,
 * so the ledger, the gate and the deadline are tested against an effect that really happens.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import { LiftError } from '../../src/contract/errors.js';
import { RequestIdSchema } from '../../src/contract/request-id.js';

export interface SystemFile {
  records: Array<{ id: number; name: string }>;
}

export function systemPath(): string {
  const path = process.env.LIFT_TEST_SYSTEM;
  if (!path) throw new Error('LIFT_TEST_SYSTEM must name the system file');
  return path;
}

export function readSystem(path = systemPath()): SystemFile {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as SystemFile) : { records: [] };
}

function appendRecord(path: string, name: string): { id: number; name: string } {
  const system = readSystem(path);
  const record = { id: system.records.length + 1, name };
  system.records.push(record);
  writeFileSync(path, JSON.stringify(system));
  return record;
}

export const calls = { recordCreate: 0, echo: 0 };

export const recordList = defineTool({
  name: 'record_list',
  description: 'Lists the records of the test system. Returns their ids and names.',
  rung: 'file',
  input: z.strictObject({ limit: z.number().int().min(1).max(1000).default(100) }),
  output: z.object({ records: z.array(z.object({ id: z.number(), name: z.string() })), count: z.number() }),
  cap: { chars: 300, narrow: 'Pass a smaller limit.' },
  effect: { class: 'read' },
  timeout: { deadlineMs: 5_000 },
  example: { limit: 10 },
  run: async (input) => {
    const records = readSystem().records.slice(0, input.limit);
    return { fields: { records, count: records.length }, summary: `${records.length} records` };
  },
});

export const recordCreate = defineTool({
  name: 'record_create',
  description: 'Creates one record in the test system and reads it back. Returns its id.',
  rung: 'file',
  input: z.strictObject({
    name: z
      .string()
      .min(1)
      .max(40)
      .regex(/^[a-z][a-z0-9 -]*$/),
    priority: z.number().int().min(1).max(5).default(3),
    request_id: RequestIdSchema,
    delay_ms: z.number().int().min(0).max(60_000).default(0),
  }),
  output: z.object({ id: z.number(), name: z.string() }),
  effect: { class: 'reversible', repeat: 'the same request_id returns the first record, effect: existing' },
  timeout: { deadlineMs: 2_000, settle: 'record_list, look for the name' },
  example: { name: 'blue widget', request_id: 'req-0001' },
  run: async (input, ctx) => {
    calls.recordCreate++;
    ctx.markStarted();
    const record = appendRecord(systemPath(), input.name);
    ctx.emit({ type: 'action-performed', wrote: record.id });
    if (input.delay_ms > 0)
      await sleep(input.delay_ms, undefined, { signal: ctx.signal }).catch(() => undefined);
    const found = readSystem().records.some((stored) => stored.id === record.id);
    return {
      fields: record,
      summary: `record ${record.id} created`,
      verifiedBy: 'record_list read-back',
      checks: [{ name: 'record is in the system', passed: found }],
    };
  },
});

export const slowProbe = defineTool({
  name: 'probe_wait',
  description: 'Waits, optionally after saying it started sending. Returns nothing useful; tests deadlines.',
  rung: 'cli',
  input: z.strictObject({ ms: z.number().int().min(0).max(60_000), started: z.boolean().default(false) }),
  output: z.object({ waited: z.number() }),
  effect: { class: 'reversible', gate: 'none' },
  timeout: { deadlineMs: 300, settle: 'record_list' },
  example: { ms: 10 },
  run: async (input, ctx) => {
    if (input.started) ctx.markStarted();
    await sleep(input.ms);
    return { fields: { waited: input.ms }, summary: 'waited' };
  },
});

export const noticePublish = defineTool({
  name: 'notice_publish',
  description: 'Publishes a notice that other people see. Returns the record id. Held for review.',
  rung: 'file',
  input: z.strictObject({ name: z.string().min(1).max(40), request_id: RequestIdSchema }),
  output: z.object({ id: z.number(), name: z.string() }),
  effect: { class: 'visible', repeat: 'same request_id -> existing' },
  timeout: { deadlineMs: 5_000, settle: 'record_list' },
  preview: (input) => `Publish notice '${input.name}' to the test system at ${systemPath()}`,
  example: { name: 'closing early', request_id: 'req-0002' },
  run: async (input, ctx) => {
    ctx.markStarted();
    await sleep(50);
    const record = appendRecord(systemPath(), `notice: ${input.name}`);
    return { fields: record, summary: `notice ${record.id} published` };
  },
});

export const recordPurge = defineTool({
  name: 'record_purge',
  description: 'Deletes every record. Irreversible; needs a signature. Returns how many were deleted.',
  rung: 'file',
  input: z.strictObject({ request_id: RequestIdSchema }),
  output: z.object({ deleted: z.number() }),
  effect: { class: 'irreversible' },
  timeout: { deadlineMs: 5_000, settle: 'record_list' },
  example: { request_id: 'req-0003' },
  run: async (_input, ctx) => {
    ctx.markStarted();
    const deleted = readSystem().records.length;
    writeFileSync(systemPath(), JSON.stringify({ records: [] }));
    return { fields: { deleted }, summary: `${deleted} deleted` };
  },
});

/** Leaks its secret everywhere it can, so the scrubber has something to catch. */
export const secretEcho = defineTool({
  name: 'secret_echo',
  description: 'Signs in with the stored canary secret. Returns the session (tests scrubbing).',
  rung: 'api',
  input: z.strictObject({ fail: z.boolean().default(false), big: z.boolean().default(false) }),
  output: z.object({ session: z.string(), rows: z.array(z.string()) }),
  cap: { chars: 200 },
  effect: { class: 'read' },
  timeout: { deadlineMs: 5_000 },
  session: { secret: 'canary_password', onExpiry: 'AUTH_REQUIRED' },
  example: {},
  run: async (input, ctx) => {
    calls.echo++;
    const password = ctx.secret('canary_password');
    ctx.emit({ type: 'action-performed', sent: `login with ${password}` });
    if (input.fail)
      throw new LiftError('AUTH_REQUIRED', `the server rejected ${password}`, { hint: `not ${password}` });
    const rows = input.big ? Array.from({ length: 50 }, (_, i) => `row ${i} ${password}`) : [];
    return { fields: { session: `token-for-${password}`, rows }, summary: `signed in as ${password}` };
  },
});

export const tools = [recordList, recordCreate, slowProbe, noticePublish, recordPurge, secretEcho];
