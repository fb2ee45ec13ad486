import { describe, expect, it } from 'vitest';
import { revisionOf } from '../../src/capability/capability.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { type CompileInput, compileCapability } from '../../src/discover/compile.js';

const field = (label: string) => ({ frame: [], locator: { by: 'label' as const, label } });
const cell = (column: string) => ({ frame: [], locator: { by: 'cell' as const, row: 'Printer', column } });

/** A write that fills a subject and chooses a priority, then submits. */
function requestCreate(checkpoint: CompileInput['checkpoint']): CompileInput {
  return {
    name: 'service_request_create',
    intent: 'Make a service request',
    inputs: [
      { name: 'subject', type: 'string' },
      { name: 'priority', type: 'string' },
    ],
    outputs: [{ name: 'requestId', type: 'string' }],
    bound: { subject: 'Printer', priority: 'High' },
    start: { origin: 'http://127.0.0.1:1', path: '/new', fingerprint: 'a'.repeat(64) },
    actions: [
      { op: 'fill', target: field('Subject'), value: { input: 'subject' } },
      { op: 'select', target: field('Priority'), value: { input: 'priority' } },
      { op: 'click', target: { frame: [], locator: { by: 'role', role: 'button', name: 'Create' } } },
      { op: 'read', target: cell('Request'), output: 'requestId' },
    ],
    checkpoint,
    outcomes: ['found'],
    provenance: {
      explorer: 'scripted',
      runId: 'run_test',
      createdAt: '2026-12-02T00:00:00.000Z',
      liftVersion: LIFT_VERSION,
    },
  };
}

describe('the compiler and a write checkpoint', () => {
  it('refuses a checkpoint that checks only the key of what a write typed', () => {
    expect(() => compileCapability(requestCreate({ target: cell('Subject'), input: 'subject' }))).toThrow(
      /never reads back 'priority'/,
    );
  });

  it('compiles a checkpoint that reads back every written value', () => {
    const capability = compileCapability(
      requestCreate({
        target: cell('Subject'),
        input: 'subject',
        values: [{ target: cell('Priority'), input: 'priority' }],
      }),
    );
    expect(capability.checkpoint.values).toEqual([
      {
        target: { frame: [], locator: { by: 'cell', row: '{{input.subject}}', column: 'Priority' } },
        equals: { input: 'priority' },
        match: 'exact',
      },
    ]);
  });
});

describe('the compiler and literal text holding an input', () => {
  it('stores a literal that holds a bound value as a template, so a replay writes its own input', () => {
    const input = requestCreate({
      target: cell('Subject'),
      input: 'subject',
      values: [{ target: cell('Priority'), input: 'priority' }],
    });
    const body = { frame: [], locator: { by: 'label' as const, label: 'Body' } };
    // "[[Category:High]]" as the explorer typed it, with priority=High bound; "Highway" is another word.
    input.actions.splice(2, 0, { op: 'fill', target: body, value: { literal: 'Highway [[Category:High]]' } });
    const capability = compileCapability(input);
    const fill = capability.steps.find(
      (step) =>
        step.op === 'fill' && step.target.locator.by === 'label' && step.target.locator.label === 'Body',
    );
    expect(fill && 'value' in fill ? fill.value : undefined).toEqual({
      template: 'Highway [[Category:{{input.priority}}]]',
    });
  });
});

describe('the compiler and inputs no step uses', () => {
  it('refuses a capability with an input that nothing types, chooses by or navigates with', () => {
    const input = requestCreate({
      target: cell('Subject'),
      input: 'subject',
      values: [{ target: cell('Priority'), input: 'priority' }],
    });
    input.inputs.push({ name: 'site', type: 'string' });
    input.bound = { ...input.bound, site: 'Lyon' };
    expect(() => compileCapability(input)).toThrow(/no step uses the input 'site'/);
  });
});

describe('the compiler and targets that would not replay', () => {
  const valid = () =>
    requestCreate({
      target: cell('Subject'),
      input: 'subject',
      values: [{ target: cell('Priority'), input: 'priority' }],
    });

  it('refuses an action whose target named more than one element of its page', () => {
    const input = valid();
    input.actions[2] = { ...input.actions[2]!, notUnique: true };
    expect(() => compileCapability(input)).toThrow(
      /action 3 \(click button "Create"\) names more than one element/,
    );
  });

  it('refuses a write whose last fill is never submitted', () => {
    const input = valid();
    // The Create click is gone: the values are typed and nothing sends them.
    input.actions.splice(2, 1);
    input.actions.pop();
    input.outputs = [];
    expect(() => compileCapability(input)).toThrow(/is never submitted/);
  });
});

describe('the compiler and outputs read from the resulting page', () => {
  const checkpoint = {
    target: cell('Subject'),
    input: 'subject',
    values: [{ target: cell('Priority'), input: 'priority' }],
  };
  const withSource = (from: unknown): CompileInput => {
    const input = requestCreate(checkpoint);
    return {
      ...input,
      outputs: [{ name: 'requestId', type: 'string', from } as CompileInput['outputs'][number]],
      actions: input.actions.filter((action) => action.op !== 'read'),
    };
  };

  it('keeps a message or link source, with no read step for its output', () => {
    for (const from of [
      { message: { pattern: 'Request (R-\\d+) created' } },
      { link: { name: 'View request', param: 'request' } },
    ]) {
      const capability = compileCapability(withSource(from));
      expect(capability.outputs[0]?.from).toEqual(from);
      expect(capability.steps.some((step) => step.op === 'read')).toBe(false);
    }
  });

  it('refuses a message pattern with two capture groups', () => {
    expect(() => compileCapability(withSource({ message: { pattern: '(Request) (R-\\d+)' } }))).toThrow(
      /2 capture groups/,
    );
  });

  it('keeps a capability without normalisation, or with "exact", as it was: same JSON, same revision', () => {
    const compiled = (normalise?: 'exact' | 'duration') =>
      compileCapability(
        requestCreate({
          target: cell('Subject'),
          input: 'subject',
          values: [{ target: cell('Priority'), input: 'priority', ...(normalise ? { normalise } : {}) }],
        }),
      );
    const plain = compiled();
    expect(JSON.stringify(plain.checkpoint)).not.toContain('normalise');
    expect(revisionOf(compiled('exact'))).toBe(revisionOf(plain));
    expect(compiled('duration').checkpoint.values?.[0]).toMatchObject({ normalise: 'duration' });
    expect(revisionOf(compiled('duration'))).not.toBe(revisionOf(plain));
  });
});
