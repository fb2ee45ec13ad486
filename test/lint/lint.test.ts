import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import { loadLintTargets, loadMcpTargets } from '../../src/lint/load.js';
import { fromJsonToolList, fromLiftTool } from '../../src/lint/normalize.js';
import { lintTools } from '../../src/lint/rules.js';
import { lift } from '../support/cli.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'lint');
const rules = (findings: Array<{ rule: string }>) => findings.map((finding) => finding.rule);

describe('lift lint on the two specimens of the design notes', () => {
  it('gives the pass-through run_inventory at least 5 findings, one of them fix-first', async () => {
    const findings = lintTools(await loadLintTargets('run-inventory.json', FIXTURES));
    expect(findings.length).toBeGreaterThanOrEqual(5);
    expect(findings.filter((finding) => finding.severity === 'fix-first').map((f) => f.rule)).toEqual([
      'pass-through',
    ]);
    expect(findings[0]).toMatchObject({ tool: 'run_inventory', argument: 'command' });
  });

  it('gives the task-shaped inventory_create_item no findings', async () => {
    expect(lintTools(await loadLintTargets('inventory-create-item.json', FIXTURES))).toEqual([]);
  });

  it('prints JSON findings with --json and exits 1 when something should be fixed', async () => {
    const result = await lift(['lint', 'run-inventory.json', '--json'], { cwd: FIXTURES });
    expect(result.code).toBe(1);
    const findings = JSON.parse(result.stdout) as Array<{ severity: string; rule: string; fix: string }>;
    expect(findings.every((finding) => finding.fix.length > 0)).toBe(true);
    const clean = await lift(['lint', 'inventory-create-item.json'], { cwd: FIXTURES });
    expect(clean.code).toBe(0);
  });
});

describe('rules on common bad tools', () => {
  it('reads OpenAI, Anthropic and MCP shapes alike', () => {
    const parameters = { type: 'object', properties: { query: { type: 'string' } } };
    const openai = fromJsonToolList([
      { type: 'function', function: { name: 'search_db', description: '', parameters } },
    ]);
    const anthropic = fromJsonToolList([{ name: 'search_db', description: '', input_schema: parameters }]);
    const mcp = fromJsonToolList({
      tools: [{ name: 'search_db', description: '', inputSchema: parameters }],
    });
    expect(rules(lintTools(openai))).toEqual(rules(lintTools(anthropic)));
    expect(rules(lintTools(anthropic))).toEqual(rules(lintTools(mcp)));
    expect(rules(lintTools(mcp))).toContain('missing-description');
    expect(rules(lintTools(mcp))).toContain('pass-through');
  });

  it('flags credentials, free strings for allow-lists, unbounded arrays and numbers, and missing previews', () => {
    const [target] = fromJsonToolList({
      tools: [
        {
          name: 'payment_send',
          description: 'Sends a payment. Returns the payment id. Errors: DECLINED. Times out after 20 s.',
          inputSchema: {
            type: 'object',
            properties: {
              api_key: { type: 'string', maxLength: 80 },
              currency: { type: 'string' },
              amounts: { type: 'array', items: { type: 'number' } },
              request_id: { type: 'string', maxLength: 64 },
            },
          },
        },
      ],
    });
    const found = rules(lintTools([target!]));
    expect(found).toEqual(
      expect.arrayContaining([
        'credential-input',
        'free-string-for-allow-list',
        'unbounded-array',
        'unbounded-number',
        'irreversible-without-preview',
      ]),
    );
    expect(found).not.toContain('write-without-request-id');
  });

  it("takes a tool list's word that an irreversible call waits for a person, as the preview it would need", () => {
    const listed = (description: string) =>
      fromJsonToolList({
        tools: [
          {
            name: 'account_delete',
            description,
            inputSchema: { type: 'object', properties: { request_id: { type: 'string', maxLength: 64 } } },
            annotations: { readOnlyHint: false, destructiveHint: true },
          },
        ],
      });
    const plain = 'Deletes one account for good. Returns the date. Errors: NOT_FOUND. Times out after 20 s.';
    expect(rules(lintTools(listed(plain)))).toContain('irreversible-without-preview');
    for (const held of [
      'Deletes one account for good, held until a person approves it. Returns the date.',
      'Deletes one account for good after a person signs off. Returns the date.',
    ]) {
      expect(rules(lintTools(listed(held))), held).not.toContain('irreversible-without-preview');
    }
  });

  it('trusts a Lift contract for effects, gates, hints and deadlines', () => {
    const tool = defineTool({
      name: 'account_close',
      description: 'Closes one account for good. Returns the closing date.',
      rung: 'ui',
      input: z.strictObject({ account: z.string().regex(/^A\d{6}$/), request_id: z.string().max(64) }),
      output: z.object({ closed_at: z.string() }),
      effect: { class: 'irreversible' },
      timeout: { deadlineMs: 30_000 },
      run: async () => ({ fields: { closed_at: 'now' }, summary: 'closed' }),
    });
    // Held for a signature: the preview the person sees is the dry run.
    expect(lintTools([fromLiftTool(tool)])).toEqual([]);
  });
});

describe('lift lint --mcp', () => {
  it('starts a stdio MCP server and lints the tools it lists', async () => {
    const server = join(FIXTURES, 'bad-mcp-server.mjs');
    const findings = lintTools(await loadMcpTargets(`node ${server}`, join(import.meta.dirname, '..', '..')));
    const byTool = (name: string) => rules(findings.filter((finding) => finding.tool === name));
    expect(byTool('exec')).toEqual(expect.arrayContaining(['pass-through', 'name-not-task-shaped']));
    expect(byTool('user_login')).toContain('credential-input');
    expect(byTool('orders_delete')).toEqual(
      expect.arrayContaining(['irreversible-without-preview', 'write-without-request-id', 'unbounded-array']),
    );
  });
});

describe('path-without-roots', () => {
  const reader = (paths?: boolean) =>
    defineTool({
      name: 'report_read',
      description: 'Reads a report file and returns its text. Errors: NOT_FOUND when it is missing.',
      rung: 'file',
      input: z.strictObject({ report_path: z.string().max(500) }),
      output: z.object({ text: z.string() }),
      effect: { class: 'read' },
      timeout: { deadlineMs: 5_000 },
      ...(paths
        ? {
            paths: (input: { report_path: string }) => [
              { path: input.report_path, scope: { family: 'docs', what: 'report_path' } },
            ],
          }
        : {}),
      run: async () => ({ fields: { text: '' }, summary: 'read' }),
    });

  it('flags a Lift tool that takes a path and declares no roots for it, and not one that does', () => {
    expect(rules(lintTools([fromLiftTool(reader())]))).toContain('path-without-roots');
    expect(rules(lintTools([fromLiftTool(reader(true))]))).not.toContain('path-without-roots');
  });
});
