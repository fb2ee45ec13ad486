import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Shortlist } from '../../src/agent/shortlist.js';
import { schemaTokens } from '../../src/agent/tool-schemas.js';
import { type AnyTool, defineTool } from '../../src/contract/define-tool.js';

/** Tools in three groups, shaped like 002's cad / three / hub example. */
function tool(name: string, group: string | undefined): AnyTool {
  return defineTool({
    name,
    description: `${name.replaceAll('_', ' ')}.`,
    ...(group ? { group } : {}),
    rung: 'api',
    input: z.strictObject({ value: z.string().max(100) }),
    output: z.strictObject({ done: z.boolean() }),
    effect: { class: 'read' },
    timeout: { deadlineMs: 1000 },
    example: { value: 'x' },
    run: async () => ({ fields: { done: true }, summary: 'done' }),
  });
}

const tools = [
  tool('draw_house_plan', 'cad'),
  tool('resize_room', 'cad'),
  tool('render_plan_3d', 'three'),
  tool('post_file', 'hub'),
  tool('compose_layered_image', 'photo'),
  tool('ask_person', undefined),
  tool('search_files', undefined),
];

const config = {
  groups: {
    hub: {
      signals: [
        { pattern: String.raw`\bslack\b|\bteams\b`, weight: 10 },
        { pattern: String.raw`(?:^|\s)#[a-z][\w-]*`, weight: 6 },
      ],
    },
    cad: { signals: [{ pattern: String.raw`\bhouse plan\b|\bmarla\b|\bbedrooms?\b`, weight: 7 }] },
    three: {
      signals: [
        { pattern: String.raw`\b3d\b|\bblender\b`, weight: 10 },
        { pattern: String.raw`\brender(?:ing)?\b`, weight: 7 },
      ],
    },
    photo: {
      signals: [{ pattern: String.raw`\bbackground\b|\blogo\b`, weight: 5 }],
      programs: ['photoshop'],
      kinds: { image: 7 },
    },
  },
};

describe('the schema shortlist', () => {
  const shortlist = new Shortlist(tools, config);

  it('offers one group when it scores at least 5 and leads by 1.5 (a named program, attachments)', () => {
    const choice = shortlist.choose(
      "photoshop file 1080x1080: background shop.jpg; logo top-left; title 'Eid Sale'",
      ['shop.jpg', 'logo.png'],
    );
    expect(choice.kind).toBe('clear');
    expect(choice.groups).toEqual(['photo']);
    expect(choice.scores[0]).toMatchObject({ group: 'photo', score: 19 });
    expect(choice.scores[0]?.signals).toContain('program photoshop');
    expect(choice.tools.map((entry) => entry.name)).toEqual(['compose_layered_image']);
  });

  it('offers the top three groups when no group leads clearly', () => {
    const choice = shortlist.choose(
      'a 10 marla house with 3 bedrooms, then show the plan in 3d in blender and send it to slack #team',
    );
    expect(choice.kind).toBe('unclear');
    expect(choice.scores.map((entry) => [entry.group, entry.score])).toEqual([
      ['hub', 10.5],
      ['three', 10],
      ['cad', 7],
    ]);
    expect(choice.tools.map((entry) => entry.name).sort()).toEqual([
      'draw_house_plan',
      'post_file',
      'render_plan_3d',
      'resize_room',
    ]);
  });

  it('offers the small general set when no group scores', () => {
    const choice = shortlist.choose('make it pop');
    expect(choice.kind).toBe('general');
    expect(choice.scores).toEqual([]);
    expect(choice.tools.map((entry) => entry.name)).toEqual(['ask_person', 'search_files']);
  });

  it('takes the general set from lift.config when it names one', () => {
    const custom = new Shortlist(tools, { ...config, general: ['search_files'] });
    expect(custom.choose('make it pop').tools.map((entry) => entry.name)).toEqual(['search_files']);
  });

  it('sends fewer schema tokens than the whole list', () => {
    const all = schemaTokens(shortlist.all().tools);
    const clear = schemaTokens(shortlist.choose('open it in photoshop').tools);
    expect(clear).toBeGreaterThan(0);
    expect(clear * 4).toBeLessThan(all);
  });

  it('rejects an invalid pattern in lift.config with the group named', () => {
    expect(
      () => new Shortlist(tools, { groups: { hub: { signals: [{ pattern: '(', weight: 1 }] } } }),
    ).toThrow(/group 'hub' has an invalid pattern/);
  });
});
