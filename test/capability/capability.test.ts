import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Capability, revisionOf, validateCapability } from '../../src/capability/capability.js';
import { diffValues } from '../../src/capability/diff.js';
import { CapabilityStore } from '../../src/capability/store.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { compileCapability } from '../../src/discover/compile.js';
import { openStore } from '../../src/store/store.js';
import { tempHome } from '../replay/helpers.js';

const home = tempHome();
const store = openStore(home.home);
afterAll(() => {
  store.close();
  home.cleanup();
});

const workspace = ['Workspace'];
const base = () =>
  compileCapability({
    name: 'member_lookup_savings',
    intent: 'Verify a member ID and return the savings balance and currency',
    inputs: [{ name: 'memberId', type: 'string' }],
    outputs: [{ name: 'savingsBalance', type: 'number' }],
    bound: { memberId: 'M-1001' },
    start: { origin: 'http://127.0.0.1:1', path: '/app', fingerprint: 'a'.repeat(64) },
    actions: [
      {
        op: 'fill',
        target: { frame: workspace, locator: { by: 'label', label: 'Member ID' } },
        value: { literal: 'M-1001' },
      },
      { op: 'click', target: { frame: workspace, locator: { by: 'role', role: 'button', name: 'Look up' } } },
      {
        op: 'wait_for',
        target: { frame: workspace, locator: { by: 'role', role: 'heading', name: 'Member M-1001' } },
      },
      {
        op: 'read',
        target: { frame: workspace, locator: { by: 'cell', row: 'Savings', column: 'Balance' } },
        output: 'savingsBalance',
      },
    ],
    checkpoint: {
      target: { frame: workspace, locator: { by: 'cell', row: 'M-1001', column: 'Member ID' } },
      input: 'memberId',
    },
    outcomes: ['found', 'not_found'],
    provenance: {
      explorer: 'scripted',
      runId: 'run_1',
      createdAt: '2026-11-30T12:00:00.000Z',
      liftVersion: LIFT_VERSION,
    },
  });

describe('capabilities', () => {
  it('turn bound values back into typed parameters and give each click the next postcondition', () => {
    const capability = base();
    expect(capability.steps[0]).toMatchObject({ op: 'fill', value: { input: 'memberId' } });
    expect(capability.steps[1]!.expect).toMatchObject({
      kind: 'visible',
      target: { locator: { name: 'Member {{input.memberId}}' } },
    });
    expect(capability.checkpoint.target.locator).toMatchObject({ row: '{{input.memberId}}' });
    expect(JSON.stringify(capability)).not.toContain('M-1001');
  });

  it('have a revision that changes when any step changes and not when keys are reordered', () => {
    const capability = base();
    const reverseKeys = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reverseKeys)
        : value && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([key, item]) => [key, reverseKeys(item)]),
            )
          : value;
    const reordered = reverseKeys(capability) as Capability;
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(capability));
    expect(revisionOf(reordered)).toBe(revisionOf(capability));
    const changed = structuredClone(capability);
    (changed.steps[1] as { target: { locator: { name: string } } }).target.locator.name = 'Search';
    expect(revisionOf(changed)).not.toBe(revisionOf(capability));
    expect(diffValues(capability, changed).map((difference) => difference.path)).toEqual([
      'steps[1].target.locator.name',
    ]);
  });

  it('refuse to compile without the output reads or the checkpoint', () => {
    expect(() => compileCapability({ ...baseInput(), actions: baseInput().actions.slice(0, 2) })).toThrow(
      /savingsBalance/,
    );
    expect(() => compileCapability({ ...baseInput(), checkpoint: undefined })).toThrow(/checkpoint/);
  });

  it('are never written when they fail validation, and re-hash on every load', async () => {
    const capabilities = new CapabilityStore(store.capabilities);
    const broken = {
      ...base(),
      steps: [{ version: 1, op: 'evaluate', script: 'alert(1)', expect: { kind: 'none' } }],
    };
    expect(validateCapability(broken).success).toBe(false);
    expect(() => capabilities.save(broken)).toThrow(/not valid/);
    expect(
      existsSync(join(store.home, 'capabilities')) ? readdirSync(join(store.home, 'capabilities')) : [],
    ).toEqual([]);
    const { revision } = await capabilities.save(base());
    expect((await capabilities.load(revision)).name).toBe('member_lookup_savings');
  });
});

function baseInput() {
  const capability = base();
  return {
    name: capability.name,
    intent: capability.intent,
    inputs: capability.inputs,
    outputs: capability.outputs,
    bound: { memberId: 'M-1001' },
    start: capability.preconditions,
    actions: [
      {
        op: 'fill' as const,
        target: { frame: workspace, locator: { by: 'label' as const, label: 'Member ID' } },
        value: { input: 'memberId' },
      },
      {
        op: 'click' as const,
        target: { frame: workspace, locator: { by: 'role' as const, role: 'button', name: 'Look up' } },
      },
      {
        op: 'read' as const,
        target: { frame: workspace, locator: { by: 'cell' as const, row: 'Savings', column: 'Balance' } },
        output: 'savingsBalance',
      },
    ],
    checkpoint: {
      target: { frame: workspace, locator: { by: 'cell' as const, row: 'M-1001', column: 'Member ID' } },
      input: 'memberId',
    },
    outcomes: ['found' as const],
    provenance: capability.provenance,
  };
}
