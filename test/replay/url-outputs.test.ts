import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type Capability, validateCapability } from '../../src/capability/capability.js';
import { LiftError } from '../../src/contract/errors.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { pageOutputs } from '../../src/replay/url-outputs.js';

/** A page at an address: all a URL source reads of it. */
const at = (address: string) => ({ url: () => address }) as unknown as Page;

const heading = { frame: [], locator: { by: 'role' as const, role: 'heading', name: '{{input.login}}' } };

/** A user create whose id comes from the URL it lands on, and whose existing user shows a sign. */
function userAdd(extra: Partial<Capability> = {}): unknown {
  return {
    schemaVersion: 1,
    name: 'user_add',
    intent: 'Add a user and return the new id',
    inputs: [{ name: 'login', type: 'string' }],
    outputs: [{ name: 'userId', type: 'integer', from: { url: { param: 'id' } } }],
    preconditions: { origin: 'http://127.0.0.1:1', path: '/users/new', fingerprint: 'a'.repeat(64) },
    steps: [
      {
        version: 1,
        op: 'fill',
        target: { frame: [], locator: { by: 'label', label: 'Login' } },
        value: { input: 'login' },
        expect: { kind: 'none' },
      },
    ],
    outcomes: ['found', 'already_exists'],
    dialogs: [],
    checkpoint: { target: heading, equals: { input: 'login' }, match: 'exact' },
    signs: [{ outcome: 'already_exists', after: 1, shows: [heading] }],
    provenance: {
      explorer: 'scripted',
      runId: 'r',
      createdAt: '2026-12-02T00:00:00.000Z',
      liftVersion: LIFT_VERSION,
    },
    ...extra,
  };
}

describe('outputs from the resulting URL and outcome signs in the format', () => {
  it('validates an output taken from the URL (no read step) and a sign that names an input', async () => {
    const checked = validateCapability(userAdd());
    expect(checked.success).toBe(true);
    const capability = (checked as { data: Capability }).data;
    expect(await pageOutputs(at('http://127.0.0.1:1/users.php?update=add&id=7'), capability)).toEqual({
      userId: 7,
    });
  });

  it('refuses a URL without the id: the write landed, its id cannot be given', async () => {
    const capability = (validateCapability(userAdd()) as { data: Capability }).data;
    let error: unknown;
    try {
      await pageOutputs(at('http://127.0.0.1:1/users.php?update=add'), capability);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LiftError);
    expect((error as LiftError).code).toBe('CHECK_FAILED');
    expect((error as LiftError).outcome).toBe('unknown');
  });

  it('refuses a sign of words alone, and a sign of an outcome the capability does not declare', () => {
    const words = { frame: [], locator: { by: 'text' as const, text: 'Already exists' } };
    const wordsOnly = validateCapability(
      userAdd({ signs: [{ outcome: 'already_exists', after: 1, shows: [words] }] }),
    );
    expect(wordsOnly.success).toBe(false);
    expect(JSON.stringify(wordsOnly)).toContain('words alone are no evidence');
    const undeclared = validateCapability(userAdd({ outcomes: ['found'] }));
    expect(undeclared.success).toBe(false);
  });
});
