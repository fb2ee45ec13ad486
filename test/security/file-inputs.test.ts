/**
 * Every file-like input of every built-in tool is declared as a path inside its roots (or, for
 * a tool that fetches, as a URL held to the operator's origins): a file in Lift's home and a URL
 * given where a path belongs are refused before the call runs, and nothing is fetched (issue 40).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/builtin.js';
import type { AnyTool } from '../../src/contract/define-tool.js';
import { inputSchemaOf, type JsonSchema } from '../../src/contract/json-schema.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { type Listener, startListener } from './listener.js';
import { type Layout, layout, leakableText, SECRET_CANARY } from './support.js';

/** Field names that say "a file, a folder or an address of one". */
const FILE_LIKE =
  /(^|_)(path|paths|file|files|filename|dir|directory|folder|image|images|attachments?|src|url|uri)$/i;

/** Fields whose names look file-like and are not: each with what it is instead. */
const NOT_FILES: Record<string, string> = {
  'email_find.folder': 'an IMAP folder name (INBOX, Sent), on the mail server',
};

/** Every file-like field of every built-in tool, and an input that puts a value there. */
const FILE_INPUTS: Record<string, (value: string) => unknown> = {
  'build_deck.outline.slides[].image': (image) => ({
    outline: { title: 'Deck', slides: [{ title: 'One', image }] },
  }),
  'convert_document.path': (path) => ({ path, to: 'txt' }),
  'compose_layered_image.layers[].file': (file) => ({
    size: [64, 64],
    layers: [{ name: 'Picture', kind: 'image', file }],
  }),
  'compose_layered_image.layers[].url': (url) => ({
    size: [64, 64],
    layers: [{ name: 'Picture', kind: 'image', url }],
  }),
  'resize_room.plan_file': (plan_file) => ({ plan_file, room: 'Kitchen', by_ft: 1 }),
  'set_sheet.plan_file': (plan_file) => ({ plan_file, scale: '1:100' }),
  'render_plan_3d.plan_file': (plan_file) => ({ plan_file }),
  'export_building_model.plan_file': (plan_file) => ({ plan_file }),
  'git_log_read.repo_path': (repo_path) => ({ repo_path }),
  'git_branch_push.repo_path': (repo_path) => ({ repo_path, branch: 'main', request_id: 'push-file-1' }),
  'email_draft_save.attachments[]': (path) => ({
    to: ['ada@example.invalid'],
    subject: 'Figures',
    body: 'Attached.',
    attachments: [path],
    request_id: 'draft-file-1',
  }),
  'chat_post.file': (file) => ({ to: '#team', message: 'Figures', file, request_id: 'post-file-1' }),
  'build_timeline.clips[].file': (file) => ({ name: 'Reel', fps: 25, clips: [{ file }] }),
  'build_timeline.music.file': (file) => ({
    name: 'Reel',
    fps: 25,
    clips: [{ file: 'shot.mp4' }],
    music: { file },
  }),
};

/** The file-like fields of a tool's input, as `tool.a.b[].c`. */
function fileLikeFields(tool: AnyTool): string[] {
  const found = new Set<string>();
  const walk = (schema: JsonSchema | undefined, at: string, name: string) => {
    if (!schema) return;
    for (const option of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) walk(option, at, name);
    const types = [schema.type].flat();
    if (types.includes('string') && FILE_LIKE.test(name)) found.add(`${tool.name}${at}`);
    for (const [key, property] of Object.entries(schema.properties ?? {}))
      walk(property, `${at}.${key}`, key);
    if (schema.items) walk(schema.items, `${at}[]`, name);
  };
  walk(inputSchemaOf(tool), '', '');
  return [...found];
}

const isUrlField = (field: string) => /(^|_|\.)(url|uri)(\[\])?$/.test(field);

let at: Layout;
let runtime: Runtime;
let tools: AnyTool[];
let listener: Listener;

beforeAll(async () => {
  at = layout();
  tools = await builtinTools();
  runtime = new Runtime({ home: at.home, workingDir: at.work, tools });
  runtime.store.secrets.set('office_token', SECRET_CANARY);
  // A picture and a plan file inside Lift's home, holding the canary.
  writeFileSync(join(at.home, 'stolen.png'), SECRET_CANARY);
  writeFileSync(join(at.home, 'stolen.plan.json'), SECRET_CANARY);
  listener = await startListener();
});
afterAll(async () => {
  await runtime.close();
  await listener.close();
  at.remove();
});

const inHome = (field: string) =>
  join(
    at.home,
    field.endsWith('plan_file') ? 'stolen.plan.json' : field.endsWith('file') ? 'stolen.png' : 'secrets.json',
  );

describe('every file-like input of every built-in tool', () => {
  it('is known here: a new one fails this test until it is declared and added to FILE_INPUTS', () => {
    const fields = tools.flatMap(fileLikeFields).filter((field) => !(field in NOT_FILES));
    expect(fields.sort()).toEqual(Object.keys(FILE_INPUTS).sort());
  });

  it.each(Object.entries(FILE_INPUTS))('%s is declared to the runtime', (field, inputWith) => {
    const tool = tools.find((candidate) => candidate.name === field.split('.')[0])!;
    const value = isUrlField(field)
      ? `${listener.origin}/picture.png`
      : join(at.work, field.endsWith('plan_file') ? 'house.plan.json' : 'doc.csv');
    const input = tool.input.parse(inputWith(value));
    const declared = isUrlField(field)
      ? (tool.urls?.(input) ?? []).map((entry) => entry.url)
      : (tool.paths?.(input) ?? []).map((entry) => entry.path);
    expect(declared).toContain(value);
  });

  it.each(Object.entries(FILE_INPUTS).filter(([field]) => !isUrlField(field)))(
    "%s refuses a file in Lift's home before anything runs",
    async (field, inputWith) => {
      const envelope = await runtime.invoke(field.split('.')[0]!, inputWith(inHome(field)));
      if (!('error' in envelope)) throw new Error(`read it: ${JSON.stringify(envelope)}`);
      expect(envelope.error.code, envelope.error.message).toBe('BAD_INPUT');
      expect(envelope.error.outcome).toBe('not_started');
      expect(leakableText(envelope)).not.toContain(SECRET_CANARY);
    },
  );

  it.each(Object.entries(FILE_INPUTS))('%s fetches no URL it was not allowed', async (field, inputWith) => {
    const before = listener.connections;
    const url = `${listener.origin}/picture${field.endsWith('plan_file') ? '.plan.json' : '.png'}`;
    const envelope = await runtime.invoke(field.split('.')[0]!, inputWith(url));
    if (!('error' in envelope)) throw new Error(`fetched it: ${JSON.stringify(envelope)}`);
    expect(envelope.error.code).toBe(isUrlField(field) ? 'POLICY_BLOCKED' : 'BAD_INPUT');
    expect(envelope.error.outcome).toBe('not_started');
    expect(listener.connections).toBe(before);
    expect(runtime.store.approvals.list()).toEqual([]);
  });
});
