import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  blockedName,
  checkUrl,
  classifyAction,
  clickAllowed,
  findPlaceholder,
  loadPolicy,
  parseAriaSnapshot,
  parsePolicy,
  Redactor,
  UiActionsSchema,
} from '../../../src/rungs/ui/index.js';

const policy = parsePolicy({
  origins: ['http://127.0.0.1:8080'],
  paths: ['/app/**', '/login'],
  blockedPaths: ['/app/*/transfer'],
});

describe('the UI policy', () => {
  it('admits navigations only to allowed origins and paths', () => {
    expect(checkUrl(policy, 'http://127.0.0.1:8080/app/members/M-1001', true)).toEqual({ allowed: true });
    expect(checkUrl(policy, 'http://127.0.0.1:9090/app', true)).toMatchObject({ allowed: false });
    expect(checkUrl(policy, 'http://127.0.0.1:8080/admin', true)).toMatchObject({ allowed: false });
    expect(checkUrl(policy, 'http://127.0.0.1:8080/app/members/transfer', true)).toMatchObject({
      allowed: false,
    });
    expect(checkUrl(policy, 'http://127.0.0.1:8080/favicon.ico', false)).toEqual({ allowed: true });
    expect(checkUrl(policy, 'data:text/html,hello', true)).toMatchObject({ allowed: false });
  });

  it('blocks names by whole words in any case, and applies the click allow-list with wildcards', () => {
    expect(blockedName(policy, 'TRANSFER funds')).toBe('Transfer');
    expect(blockedName(policy, 'Transferred items')).toBeUndefined();
    const listed = parsePolicy({ origins: ['http://x'], clickNames: ['Look up', 'T-*'] });
    expect(clickAllowed(listed, 'T-000101')).toBe(true);
    expect(clickAllowed(listed, 'Add note')).toBe(false);
  });

  it('loads YAML and JSON policy files and rejects an invalid one with a readable error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lift-policy-'));
    try {
      writeFileSync(
        join(dir, 'policy.yaml'),
        'origins: ["http://127.0.0.1:8080"]\nblockedNames: [Transfer, Delete]\n',
      );
      expect(loadPolicy(join(dir, 'policy.yaml')).blockedNames).toEqual(['Transfer', 'Delete']);
      writeFileSync(join(dir, 'policy.json'), JSON.stringify({ origins: [], budgets: { steps: 0 } }));
      expect(() => loadPolicy(join(dir, 'policy.json'))).toThrow(/origins/);
      expect(() => parsePolicy({ origins: ['http://x'], javascript: true })).toThrow(/not valid/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the safety classifier', () => {
  const click = { op: 'click' as const, target: { ref: 'e1' } };
  it('rates irreversible words high, buttons medium, links low', () => {
    for (const name of ['Transfer', 'Delete member', 'Pay now', 'Submit', 'Send funds']) {
      expect(classifyAction(click, { role: 'button', name }).risk).toBe('high');
    }
    expect(classifyAction(click, { role: 'button', name: 'Add note' }).risk).toBe('medium');
    expect(classifyAction(click, { role: 'link', name: 'Tickets' }).risk).toBe('low');
  });

  it('blocks typing into a password field unless it is the session sign-in', () => {
    const fill = { op: 'fill' as const, target: { ref: 'e2' }, value: 'x' };
    expect(classifyAction(fill, { role: 'textbox', name: 'Password', password: true }).risk).toBe('block');
    expect(
      classifyAction(fill, { role: 'textbox', name: 'Password', password: true }, { signIn: true }).risk,
    ).toBe('medium');
  });

  it('blocks key combinations that act on the browser and rates Enter on a button like a click', () => {
    expect(classifyAction({ op: 'press', key: 'Control+w' }, undefined).risk).toBe('block');
    expect(classifyAction({ op: 'press', key: 'Alt+F4' }, undefined).risk).toBe('block');
    expect(classifyAction({ op: 'press', key: 'Enter' }, { role: 'button', name: 'Transfer' }).risk).toBe(
      'high',
    );
    expect(classifyAction({ op: 'press', key: 'Tab' }, undefined).risk).toBe('low');
  });
});

describe('redaction', () => {
  const redactor = new Redactor({
    inputs: { memberId: 'M-1001' },
    secrets: ['hunter2-secret'],
    hiddenColumns: ['Balance'],
  });
  it('replaces bound values, secrets and hidden columns with unmistakable placeholders', () => {
    expect(redactor.text('Member m-1001 signed with hunter2-secret')).toBe(
      'Member ⟦input:memberId⟧ signed with ⟦secret⟧',
    );
    expect(redactor.cell('Balance', '12840.55')).toBe('⟦hidden:balance⟧');
    expect(redactor.cell('Currency', 'EUR')).toBe('EUR');
  });
  it('recognises a placeholder and its hand-typed look-alikes', () => {
    expect(findPlaceholder('⟦input:memberId⟧')).toBe('⟦input:memberId⟧');
    expect(findPlaceholder('row [input:memberId]')).toBe('[input:memberId]');
    expect(findPlaceholder('M-1001')).toBeUndefined();
  });
});

describe('typed actions', () => {
  it('accept refs and semantic targets, and nothing else', () => {
    expect(UiActionsSchema.safeParse([{ op: 'click', target: { ref: 'f2e17' } }]).success).toBe(true);
    expect(
      UiActionsSchema.safeParse([
        { op: 'read', target: { locator: { by: 'cell', row: 'Savings', column: 'Balance' } }, as: 'b' },
      ]).success,
    ).toBe(true);
    expect(UiActionsSchema.safeParse([{ op: 'click', target: { selector: 'xpath=//button' } }]).success).toBe(
      false,
    );
    expect(UiActionsSchema.safeParse([{ op: 'press', key: 'Enter; alert(1)' }]).success).toBe(false);
    expect(UiActionsSchema.safeParse([]).success).toBe(false);
  });
});

describe('the aria snapshot parser', () => {
  it('reads roles, names, attributes, refs, inline text and properties', () => {
    const root = parseAriaSnapshot(
      [
        '- button "Add \\"x\\" note" [disabled] [ref=f2e52] [cursor=pointer]',
        '- heading "Member" [level=3] [ref=e3]',
        '- listitem [ref=e4]: "2026-10-02 · j.moss: Asked: twice."',
        '- link "Members" [ref=e5]:',
        '  - /url: /app/members',
      ].join('\n'),
    );
    const [button, heading, item, link] = root.children;
    expect(button).toMatchObject({
      role: 'button',
      name: 'Add "x" note',
      ref: 'f2e52',
      attrs: { disabled: 'true', cursor: 'pointer' },
    });
    expect(heading?.attrs.level).toBe('3');
    expect(item?.text).toBe('2026-10-02 · j.moss: Asked: twice.');
    expect(link?.props.url).toBe('/app/members');
  });
});
