import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import type { Rung } from '../../src/contract/effects.js';
import { loadLintTargets } from '../../src/lint/load.js';
import { fromJsonToolList, fromLiftTool } from '../../src/lint/normalize.js';
import { type Finding, lintTools } from '../../src/lint/rules.js';
import { lift } from '../support/cli.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'lint');
const PLAYWRIGHT_MCP = 'playwright-mcp-0.0.83.json';
const fixFirst = (findings: Finding[]) =>
  findings
    .filter((finding) => finding.severity === 'fix-first')
    .map((finding) => `${finding.rule} ${finding.tool}.${finding.argument ?? ''}`);

describe('arguments that are never inputs (code, shell commands, selectors, coordinates)', () => {
  it('are fix-first findings, found by name or by what the description says they hold', () => {
    const targets = fromJsonToolList({
      tools: [
        {
          name: 'page_script_run',
          description: 'Evaluates a JavaScript expression in the page. Returns its value.',
          inputSchema: {
            type: 'object',
            properties: {
              body: { type: 'string', maxLength: 4000, description: '() => { /* code */ }' },
              snippet: { type: 'string', maxLength: 4000 },
            },
          },
        },
        {
          name: 'host_command_run',
          description: 'Runs it on the host. Returns stdout.',
          inputSchema: {
            type: 'object',
            properties: {
              line: { type: 'string', maxLength: 200, description: 'The shell command to run' },
              host: { type: 'string', enum: ['build-1', 'build-2'] },
              request_id: { type: 'string', maxLength: 64 },
              dry_run: { type: 'boolean' },
            },
          },
        },
        {
          name: 'element_click',
          description: 'Clicks one element. Returns the new URL.',
          inputSchema: {
            type: 'object',
            properties: {
              css: { type: 'string', maxLength: 200 },
              x: { type: 'number', minimum: 0, maximum: 4000 },
              y: { type: 'number', minimum: 0, maximum: 4000 },
              mode: { type: 'string', enum: ['css', 'xpath'], description: 'Selector kind' },
            },
          },
        },
      ],
    });
    expect(fixFirst(lintTools(targets)).sort()).toEqual([
      'code-input page_script_run.body',
      'code-input page_script_run.snippet',
      'coordinates-input element_click.x',
      'coordinates-input element_click.y',
      'selector-input element_click.css',
      'shell-command-input host_command_run.line',
    ]);
  });

  it('allows selectors and coordinates only on the UI and screen rungs of a Lift contract, never code', () => {
    const tool = (rung: Rung) =>
      defineTool({
        name: 'form_field_fill',
        description: 'Fills one field of the open form. Returns the value read back. Errors: NOT_FOUND.',
        rung,
        input: z.strictObject({
          selector: z.string().max(200),
          script: z.string().max(2000),
          request_id: z.string().max(64),
        }),
        output: z.object({ value: z.string() }),
        effect: { class: 'reversible' },
        timeout: { deadlineMs: 10_000 },
        run: async () => ({ fields: { value: '' }, summary: 'filled' }),
      });
    expect(fixFirst(lintTools([fromLiftTool(tool('api'))])).sort()).toEqual([
      'code-input form_field_fill.script',
      'selector-input form_field_fill.selector',
    ]);
    expect(fixFirst(lintTools([fromLiftTool(tool('ui'))]))).toEqual(['code-input form_field_fill.script']);
  });

  it("finds playwright-mcp's code, selector and url arguments in its real tool list", async () => {
    const findings = lintTools(await loadLintTargets(PLAYWRIGHT_MCP, FIXTURES));
    const found = fixFirst(findings);
    expect(found).toEqual(
      expect.arrayContaining([
        'code-input browser_evaluate.function',
        'code-input browser_run_code_unsafe.code',
        'selector-input browser_click.target',
        'selector-input browser_fill_form.fields[].target',
        'pass-through browser_navigate.url',
      ]),
    );
    // A human-readable element description is a label, not a selector.
    expect(found).not.toContain('selector-input browser_click.element');
  });
});

describe('credential-input', () => {
  it('reads a token budget as a number, and an access token as a credential', () => {
    const [target] = fromJsonToolList([
      {
        name: 'page_read',
        description: 'Reads the page. Returns its text.',
        input_schema: {
          type: 'object',
          properties: {
            max_tokens: { type: 'integer', minimum: 1, maximum: 4000 },
            access_token: { type: 'string', maxLength: 200 },
          },
        },
      },
    ]);
    const credentials = lintTools([target!]).filter((finding) => finding.rule === 'credential-input');
    expect(credentials.map((finding) => finding.argument)).toEqual(['access_token']);
  });
});

describe('lift lint prints findings grouped by rule', () => {
  it('gives each rule one heading with its count, its fix once, and where it applies', async () => {
    const result = await lift(['lint', PLAYWRIGHT_MCP], { cwd: FIXTURES });
    expect(result.code).toBe(1);
    const findings = JSON.parse(
      (await lift(['lint', PLAYWRIGHT_MCP, '--json'], { cwd: FIXTURES })).stdout,
    ) as Finding[];
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^25 tools, ${findings.length} findings: \\d+ fix-first`));
    const rules = new Set(findings.map((finding) => finding.rule));
    for (const rule of rules) {
      const count = findings.filter((finding) => finding.rule === rule).length;
      expect(lines.filter((line) => line.startsWith(`  ${rule} (`))).toEqual([
        expect.stringMatching(new RegExp(`^  ${rule} \\(${count}\\): \\S`)),
      ]);
    }
    // Fix-first comes before should-fix, which comes before consider.
    const order = ['FIX-FIRST', 'SHOULD-FIX', 'CONSIDER'].map((heading) =>
      lines.findIndex((line) => line.startsWith(heading)),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(result.stdout).toContain('browser_evaluate.function, browser_run_code_unsafe.code');
    // Readable: a page or two, not a line (or three) per finding.
    expect(lines.length).toBeLessThan(findings.length / 2);
  });
});
