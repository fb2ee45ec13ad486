/** Small real tools for the agent tests: they write and read files under the tool's output folder. */
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'note';

export const writeNote = defineTool({
  name: 'write_note',
  description: 'Write a text note to a file and read it back. Returns the file as files.note.',
  group: 'notes',
  rung: 'file',
  input: z.strictObject({ title: z.string().min(1).max(80), text: z.string().max(2000) }),
  output: z.strictObject({ path: z.string(), bytes: z.number() }),
  effect: { class: 'reversible' },
  timeout: { deadlineMs: 5000 },
  example: { title: 'Groceries', text: 'milk, eggs' },
  async run(input, ctx) {
    await mkdir(ctx.outputDir, { recursive: true });
    const path = join(ctx.outputDir, `${slug(input.title)}.txt`);
    ctx.markStarted();
    await writeFile(path, input.text);
    const back = await readFile(path, 'utf8');
    return {
      fields: { path, bytes: Buffer.byteLength(input.text) },
      files: { note: path },
      summary: `Wrote ${basename(path)}`,
      checks: [{ name: 'the file holds the text', passed: back === input.text }],
    };
  },
});

export const countWords = defineTool({
  name: 'count_words',
  description: 'Count the words and lines of a text file.',
  group: 'notes',
  rung: 'file',
  input: z.strictObject({ path: z.string().min(1).max(500) }),
  output: z.strictObject({ words: z.number(), lines: z.number() }),
  effect: { class: 'read' },
  timeout: { deadlineMs: 5000 },
  example: { path: '/tmp/note.txt' },
  async run(input) {
    const text = await readFile(input.path, 'utf8');
    const words = text.split(/\s+/).filter(Boolean).length;
    return {
      fields: { words, lines: text.split('\n').length },
      summary: `${words} words`,
      checks: [{ name: 'file read', passed: true }],
    };
  },
});

export const writeSummary = defineTool({
  name: 'write_summary',
  description: 'Write a one-line summary file saying how many words a note has. Returns files.summary.',
  group: 'notes',
  rung: 'file',
  input: z.strictObject({ note: z.string().min(1).max(500), words: z.number().int().min(0) }),
  output: z.strictObject({ line: z.string() }),
  effect: { class: 'reversible' },
  timeout: { deadlineMs: 5000 },
  example: { note: '/tmp/note.txt', words: 3 },
  async run(input, ctx) {
    await mkdir(ctx.outputDir, { recursive: true });
    const line = `${basename(input.note)} has ${input.words} words`;
    const path = join(ctx.outputDir, 'summary.txt');
    ctx.markStarted();
    await writeFile(path, line);
    return {
      fields: { line },
      files: { summary: path },
      summary: line,
      checks: [{ name: 'summary written', passed: (await readFile(path, 'utf8')) === line }],
    };
  },
});

export const addNumbers = defineTool({
  name: 'add_numbers',
  description: 'Add numbers and check the total against the expected one.',
  group: 'notes',
  rung: 'api',
  input: z.strictObject({ numbers: z.array(z.number()).max(100), expected: z.number() }),
  output: z.strictObject({ total: z.number() }),
  effect: { class: 'read' },
  timeout: { deadlineMs: 5000 },
  example: { numbers: [1, 2], expected: 3 },
  async run(input) {
    const total = input.numbers.reduce((sum, value) => sum + value, 0);
    return {
      fields: { total },
      summary: `total ${total}`,
      checks: [
        {
          name: 'total matches the expected',
          passed: total === input.expected,
          detail: `${total} vs ${input.expected}`,
        },
      ],
    };
  },
});

/** Posts to a channel: others see it, so the gate holds it for review. */
export const postMessage = defineTool({
  name: 'post_message',
  description: 'Post a file to a chat channel. Others will see it.',
  group: 'chat',
  rung: 'api',
  input: z.strictObject({ channel: z.string().regex(/^#[a-z0-9-]+$/), path: z.string().min(1).max(500) }),
  output: z.strictObject({ message_id: z.string() }),
  effect: { class: 'visible' },
  timeout: { deadlineMs: 5000 },
  example: { channel: '#team', path: '/tmp/summary.txt' },
  preview: (input) => `Post ${basename(input.path)} to ${input.channel}`,
  async run(input, ctx) {
    await mkdir(ctx.outputDir, { recursive: true });
    const outbox = join(ctx.outputDir, 'outbox.log');
    ctx.markStarted();
    await appendFile(outbox, `${input.channel} ${input.path}\n`);
    const lines = (await readFile(outbox, 'utf8')).split('\n');
    const id = `m${lines.filter(Boolean).length}`;
    return {
      fields: { message_id: id },
      files: { outbox },
      summary: `Posted ${basename(input.path)} to ${input.channel}`,
      checks: [
        { name: 'the outbox names the file', passed: lines.includes(`${input.channel} ${input.path}`) },
      ],
    };
  },
});

/** Deletes a note: it cannot be undone, so it needs a signature (two separate yeses in conversation). */
export const deleteNote = defineTool({
  name: 'delete_note',
  description: 'Delete a note file for good.',
  group: 'notes',
  rung: 'file',
  input: z.strictObject({ path: z.string().min(1).max(500) }),
  output: z.strictObject({ deleted: z.string() }),
  effect: { class: 'irreversible' },
  timeout: { deadlineMs: 5000 },
  example: { path: '/tmp/note.txt' },
  preview: (input) => `Delete ${input.path} for good`,
  async run(input, ctx) {
    ctx.markStarted();
    await rm(input.path);
    return { fields: { deleted: input.path }, summary: `Deleted ${basename(input.path)}` };
  },
});

/** Signs in with a stored token; a careless implementation would echo it, and Lift must scrub it. */
export const fetchProfile = defineTool({
  name: 'fetch_profile',
  description: 'Fetch the signed-in profile.',
  group: 'notes',
  rung: 'api',
  input: z.strictObject({}),
  output: z.strictObject({ user: z.string(), token_used: z.string() }),
  effect: { class: 'read' },
  timeout: { deadlineMs: 5000 },
  example: {},
  async run(_input, ctx) {
    const token = ctx.secret('api_token');
    return { fields: { user: 'ada', token_used: token }, summary: `Signed in as ada with ${token}` };
  },
});

export const testTools = [
  writeNote,
  countWords,
  writeSummary,
  addNumbers,
  postMessage,
  deleteNote,
  fetchProfile,
];
