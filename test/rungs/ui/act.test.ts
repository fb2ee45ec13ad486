import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackofficeServer, loadMembers } from '../../../src/fixtures/backoffice/index.js';
import {
  cell,
  fixture,
  type Harness,
  lookUp,
  openSession,
  refOf,
  role,
  startHarness,
  WORKSPACE,
} from './helpers.js';

const members = loadMembers();
function balance(memberId: string, type: string): string {
  const account = members
    .find((member) => member.id === memberId)
    ?.accounts.find((entry) => entry.type === type);
  if (!account) throw new Error(`no ${type} account for ${memberId}`);
  return account.balance;
}

describe('typed actions that verify themselves', () => {
  let harness: Harness;
  let server: BackofficeServer;

  beforeAll(async () => {
    harness = await startHarness();
    server = await fixture(harness);
  });
  afterAll(async () => {
    await harness.close();
  });

  it('fills and clicks inside the iframe by ref, reads a cell, and reports changed', async () => {
    const { session } = await openSession(harness, server, {
      inputs: { memberId: 'M-1004' },
      hiddenColumns: ['Balance'],
    });
    const observation = await session.observe();
    const result = await session.act([
      { op: 'fill', target: refOf(observation, 'textbox', 'Member ID'), value: { input: 'memberId' } },
      { op: 'click', target: refOf(observation, 'button', 'Look up') },
      { op: 'read', target: cell('Savings', 'Balance'), as: 'savingsBalance' },
      { op: 'read', target: cell('Savings', 'Currency'), as: 'currency' },
    ]);
    expect(result.steps.map((step) => [step.status, step.effect])).toEqual([
      ['executed', 'changed'],
      ['executed', 'changed'],
      ['executed', 'none'],
      ['executed', 'none'],
    ]);
    expect(result.reads).toEqual({ savingsBalance: balance('M-1004', 'Savings'), currency: 'USD' });
    expect(result.steps[0]?.resolved).toEqual({ target: role('textbox', 'Member ID'), input: 'memberId' });
    // Nothing the model may see carries the bound value or the balance.
    const visible = JSON.stringify(result.steps.map(({ resolved: _resolved, ...rest }) => rest));
    expect(visible).not.toContain('M-1004');
    expect(visible).not.toContain(balance('M-1004', 'Savings'));
  });

  it('resolves the same semantic targets on the reversed layout and reads the same values', async () => {
    const { session } = await openSession(harness, server, { view: '/app/members?layout=reversed' });
    await lookUp(session, 'M-1002');
    const observation = await session.observe();
    expect(observation.text).toContain('table "Accounts" (3 rows): Currency | Balance | Number | Type');
    const result = await session.act([
      { op: 'read', target: cell('Savings', 'Balance'), as: 'savings' },
      { op: 'read', target: cell('Loan', 'Balance'), as: 'loan' },
      { op: 'read', target: cell('M-1002', 'Name'), as: 'name' },
    ]);
    expect(result.reads).toEqual({
      savings: balance('M-1002', 'Savings'),
      loan: balance('M-1002', 'Loan'),
      name: 'Tomas Okafor',
    });
  });

  it('adds a note: a visible write, verified against the named state', async () => {
    const { session } = await openSession(harness, server);
    await lookUp(session, 'M-1003');
    const result = await session.act([
      { op: 'fill', target: role('textbox', 'Note'), value: 'Called back about the letter.' },
      {
        op: 'click',
        target: role('button', 'Add note'),
        verify: {
          target: { frame: WORKSPACE, locator: { by: 'role', role: 'region', name: 'Notes' } },
          contains: 'Called back',
        },
      },
    ]);
    expect(result.steps[1]).toMatchObject({ status: 'executed', effect: 'changed' });
    const stored = server
      .members()
      .find((member) => member.id === 'M-1003')
      ?.notes.at(-1);
    expect(stored?.text).toBe('Called back about the letter.');
  });

  it('reports UNEXPECTED_STATE when the named state changes to something else', async () => {
    const { session } = await openSession(harness, server);
    await lookUp(session, 'M-1005');
    const result = await session.act([
      { op: 'fill', target: role('textbox', 'Note'), value: 'First contact.' },
      {
        op: 'click',
        target: role('button', 'Add note'),
        verify: {
          target: { frame: WORKSPACE, locator: { by: 'role', role: 'region', name: 'Notes' } },
          contains: 'Second contact',
        },
      },
    ]);
    expect(result.steps[1]).toMatchObject({
      status: 'executed',
      effect: 'unexpected',
      code: 'UNEXPECTED_STATE',
    });
  });

  it('gives no_change with reason disabled for a disabled button that looks enabled, and sends nothing', async () => {
    const { session } = await openSession(harness, server, {
      view: '/app/members/M-1001?scenario=disabled_button',
    });
    server.clearRequests();
    const result = await session.act([
      { op: 'fill', target: role('textbox', 'Note'), value: 'Should never be saved.' },
      { op: 'click', target: role('button', 'Add note') },
    ]);
    expect(result.steps[1]).toMatchObject({
      status: 'rejected',
      effect: 'no_change',
      code: 'NO_CHANGE',
      blockedBy: 'disabled',
    });
    expect(result.steps[1]?.effect).not.toBe('changed');
    expect(server.requests().filter((entry) => entry.method === 'POST')).toEqual([]);
  });

  it('gives no_change with reason covered when an overlay swallows clicks', async () => {
    const { session } = await openSession(harness, server, { view: '/app/members/M-1001?scenario=overlay' });
    server.clearRequests();
    const result = await session.act([{ op: 'click', target: role('link', 'Back to lookup') }]);
    expect(result.steps[0]).toMatchObject({ status: 'rejected', effect: 'no_change', blockedBy: 'covered' });
    expect(result.steps[0]?.message).toContain('another element lies on top of it');
    expect(server.requests()).toEqual([]);
  });

  it('refuses a placeholder typed back as text, with a hint to refer to the input by name', async () => {
    const { session } = await openSession(harness, server, { inputs: { memberId: 'M-1001' } });
    const result = await session.act([
      { op: 'fill', target: role('textbox', 'Member ID'), value: '⟦input:memberId⟧' },
      { op: 'click', target: role('button', 'Look up') },
    ]);
    expect(result.steps[0]).toMatchObject({ status: 'rejected', code: 'BAD_INPUT' });
    expect(result.steps[0]?.hint).toContain('{"input": "memberId"}');
    expect(result.steps[0]?.example).toMatchObject({ op: 'fill', value: { input: 'memberId' } });
    expect(result.steps[1]?.status).toBe('skipped');
    const asRow = await session.act([{ op: 'read', target: cell('[input:memberId]', 'Name'), as: 'name' }]);
    expect(asRow.steps[0]).toMatchObject({ status: 'rejected', code: 'BAD_INPUT' });
    expect(asRow.steps[0]?.hint).toContain('ref');
  });

  it('treats a dialog as a blocking state until it is handled', async () => {
    const { session } = await openSession(harness, server);
    await session.act([{ op: 'fill', target: role('textbox', 'Member ID'), value: 'M-1001' }]);
    const opened = await session.act([
      { op: 'navigate', url: '/app/members/M-1001?scenario=dialog', frame: WORKSPACE },
      { op: 'click', target: role('link', 'Back to lookup') },
    ]);
    expect(opened.state).toBe('dialog');
    expect(opened.steps[1]?.status).toBe('skipped');
    const observation = await session.observe();
    expect(observation.state).toBe('dialog');
    expect(observation.dialog?.message).toContain('locked by another operator');
    const blocked = await session.act([{ op: 'click', target: role('link', 'Back to lookup') }]);
    expect(blocked.steps[0]).toMatchObject({
      status: 'rejected',
      code: 'PROMPT_UNEXPECTED',
      blockedBy: 'dialog',
    });
    const handled = await session.act([{ op: 'dialog', response: 'accept' }]);
    expect(handled.steps[0]).toMatchObject({ status: 'executed', effect: 'changed' });
    expect((await session.observe()).text).toContain('Opened read-only.');
  });

  it('falls back to the semantic target when a ref went stale after a re-render', async () => {
    const { session } = await openSession(harness, server);
    const before = await session.observe();
    const members = refOf(before, 'link', 'Members');
    await session.act([{ op: 'navigate', url: '/app', frame: [] }]);
    const result = await session.act([{ op: 'click', target: members }]);
    expect(result.steps[0]?.status).toBe('executed');
    expect(result.steps[0]?.resolved?.target).toEqual({
      frame: [],
      locator: { by: 'role', role: 'link', name: 'Members' },
    });
  });

  it('rejects malformed actions and more than 6 per call as BAD_INPUT, with JavaScript nowhere to go', async () => {
    const { session } = await openSession(harness, server);
    await expect(
      session.act([{ op: 'evaluate', script: 'document.forms[0].submit()' }]),
    ).rejects.toMatchObject({
      code: 'BAD_INPUT',
    });
    await expect(session.act([{ op: 'click', target: { css: '#transfer' } }])).rejects.toMatchObject({
      code: 'BAD_INPUT',
    });
    const seven = Array.from({ length: 7 }, () => ({ op: 'wait_for', text: 'Back Office' }));
    await expect(session.act(seven)).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });
});
