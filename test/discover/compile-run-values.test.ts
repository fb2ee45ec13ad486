import { describe, expect, it } from 'vitest';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { type CompileInput, compileCapability, parameteriseUrl } from '../../src/discover/compile.js';
import { runProduced } from '../../src/discover/run-values.js';

const issue = (row: string) => ({
  frame: [],
  locator: { by: 'cell' as const, row, column: 'Title', key: 'Id' },
});

/** A lookup of an issue by its number: navigate to its page, read its title. */
function issueLookup(url: string, checkpointRow: string): CompileInput {
  return {
    name: 'issue_title_read',
    intent: 'Read an issue title by its number',
    inputs: [{ name: 'number', type: 'integer' }],
    outputs: [{ name: 'title', type: 'string' }],
    bound: { number: '2' },
    start: { origin: 'http://127.0.0.1:1', path: '/issues', fingerprint: 'a'.repeat(64) },
    actions: [
      { op: 'navigate', url },
      { op: 'read', target: issue('{{input.number}}'), output: 'title' },
    ],
    checkpoint: { target: { frame: [], locator: { by: 'text', text: checkpointRow } }, input: 'number' },
    outcomes: ['found', 'not_found'],
    provenance: {
      explorer: 'scripted',
      runId: 'run_test',
      createdAt: '2026-12-07T00:00:00.000Z',
      liftVersion: LIFT_VERSION,
    },
  };
}

describe('navigation that holds a bound value', () => {
  it('compiles a query value or path segment equal to an input as its placeholder', () => {
    const capability = compileCapability(
      issueLookup('http://127.0.0.1:1/issue?id=2&tab=history', 'Issue {{input.number}}'),
    );
    expect(capability.steps[0]).toMatchObject({
      op: 'navigate',
      path: '/issue?id={{input.number}}&tab=history',
    });
    expect(parameteriseUrl('/issues/2/edit', { number: '2' })).toBe('/issues/{{input.number}}/edit');
  });

  it('compares the decoded component with the whole value, never a part of it', () => {
    const bound = { number: '2', title: 'Server inventory' };
    expect(parameteriseUrl('/issue?id=22&page=2x', bound)).toBe('/issue?id=22&page=2x');
    expect(parameteriseUrl('/wiki/Server%20inventory', bound)).toBe('/wiki/{{input.title}}');
    expect(parameteriseUrl('/search?q=Server+inventory&go=1', bound)).toBe('/search?q={{input.title}}&go=1');
    expect(parameteriseUrl('/bad?q=%E0%A4%A', bound)).toBe('/bad?q=%E0%A4%A');
  });
});

describe('values only this run made', () => {
  const now = new Date('2026-12-07T03:21:00Z');
  const texts = {
    before: new Set(['Issues', 'Showing 1-3 of 3', 'Issue {{input.number}}']),
    after: new Set(['Issue #4 created', 'Last modified: 2026/12/07 03:21 by admin']),
    typed: ['Release 3'],
    now,
    wrote: true,
  };
  const produced = runProduced(texts);

  it("knows today's date in the forms applications print it", () => {
    expect(produced('Last modified: 2026/12/07 03:21 by admin')).toMatch(/today's date/);
    expect(produced('Saved on 7 December 2026')).toMatch(/today's date/);
    expect(produced('Dec 7, 2026')).toMatch(/today's date/);
    expect(produced('07.12.2026')).toMatch(/today's date/);
    expect(produced('Released 2025-03-01')).toBeUndefined();
  });

  it('knows a number the pages showed only after the write, and not one they showed before or one typed', () => {
    expect(produced('Issue #4')).toMatch(/'4' appeared only after this run's write/);
    expect(produced('Showing 1-3 of 3')).toBeUndefined();
    expect(produced('Release 3')).toBeUndefined();
    expect(produced('Issue {{input.number}}')).toBeUndefined();
    // A session that never wrote made nothing.
    expect(runProduced({ ...texts, wrote: false })('Issue #4')).toBeUndefined();
  });

  it("refuses a checkpoint holding the new record's number, with the hint to read it as an output", () => {
    const input = { ...issueLookup('http://127.0.0.1:1/issue?id=2', 'Issue #4 created'), runTexts: texts };
    expect(() => compileCapability(input)).toThrow(
      /the checkpoint holds 'Issue #4 created', and '4' appeared only after this run's write.*read it as an output instead/,
    );
  });
});
