import {
  CAPABILITY_SCHEMA_VERSION,
  type Capability,
  type CapabilityOutcome,
  type InputSpec,
  type OutcomeSign,
  type OutputSpec,
  type Postcondition,
  placeholdersIn,
  type Step,
  type Value,
  validateCapability,
  writtenInputs,
} from '../capability/capability.js';
import { LiftError } from '../contract/errors.js';
import { describeScopedLocator, type Target } from '../rungs/ui/locator.js';
import { tokenPattern } from '../rungs/ui/redact.js';
import type { ActionTrace, FrameUrl } from './action-traces.js';
import { literalsIn, type RunTexts, runProduced } from './run-values.js';

/**
 * One action the session executed (rejected and no-change attempts never get here). `notUnique`
 * marks one whose target also names other elements of the page it ran on: it cannot compile.
 */
export type ExecutedAction = (
  | { op: 'navigate'; url: string }
  | { op: 'click'; target: Target }
  | { op: 'fill'; target: Target; value: Value }
  | { op: 'type'; target: Target; value: Value; clear?: false }
  | { op: 'select'; target: Target; value: Value }
  | { op: 'check'; target: Target; checked: boolean }
  | { op: 'press'; target: Target; key: string }
  | { op: 'wait_for'; target: Target }
  | { op: 'read'; target: Target; output: string }
  | { op: 'dialog'; accepted: boolean; message: string }
) & { notUnique?: true; trace?: ActionTrace };

/** What the compiler knows of a compiled step that the capability does not keep: the rehearsal's plan. */
export interface StepTrace {
  /** The step sent the application a request that can change it. */
  wrote: boolean;
  /** Where the page was once the step's work settled. */
  urlAfter?: string;
  /** Where each named frame was then. */
  framesAfter?: FrameUrl[];
}

export interface CompileInput {
  name: string;
  intent: string;
  inputs: InputSpec[];
  outputs: OutputSpec[];
  /** The values bound to the inputs during discovery, turned back into parameters here. */
  bound: Record<string, string>;
  start: { origin: string; path: string; fingerprint: string };
  actions: ExecutedAction[];
  checkpoint: (CheckpointDraft & { values?: CheckpointDraft[] }) | undefined;
  outcomes: CapabilityOutcome[];
  /** What outcomes other than found look like, learned from example inputs (rehearse.ts). */
  signs?: OutcomeSign[];
  /** The application's error pages the session met (fingerprint.ts errorPageOf). */
  errorPages?: string[];
  /** What the pages showed before and after the session's write, to refuse values this run made. */
  runTexts?: RunTexts;
  provenance: Capability['provenance'];
}

/** One comparison named by the explorer: where the page shows a bound input. */
export interface CheckpointDraft {
  target: Target;
  input: string;
  match?: 'exact' | 'contains';
}

/** Inputs typed into the page that no comparison of the checkpoint reads back. */
function uncheckedInputs(steps: Step[], checkpoint: CompileInput['checkpoint']): string[] {
  if (!checkpoint) return [];
  const checked = new Set([checkpoint.input, ...(checkpoint.values ?? []).map((check) => check.input)]);
  return writtenInputs(steps).filter((name) => !checked.has(name));
}

/** A step before its postcondition is known (distributes over the union). */
type Draft = Step extends infer S ? (S extends Step ? Omit<S, 'expect' | 'version'> : never) : never;

/**
 * Replaces bound values in a text with `{{input.NAME}}`, where they stand as whole tokens
 * only, as the observation redacts them: `user` bound never turns link "Users" into
 * "{{input.group}}s", nor `admin` a link to "/wp-admin/" into "/wp-{{input.login}}/".
 */
export function parameteriseText(text: string, bound: Record<string, string>): string {
  const entries = Object.entries(bound)
    .filter(([, value]) => value.length > 0)
    .sort((a, b) => b[1].length - a[1].length);
  let result = text;
  for (const [name, value] of entries) {
    const token = new RegExp(tokenPattern(value), 'gu');
    result = result.replace(token, `{{input.${name}}}`);
  }
  return result;
}

/** Replaces bound values in every string of a target with `{{input.NAME}}` (whole tokens). */
function parameterise(target: Target, bound: Record<string, string>): Target {
  const visit = (node: unknown): unknown => {
    if (typeof node === 'string') return parameteriseText(node, bound);
    if (Array.isArray(node)) return node.map(visit);
    if (node && typeof node === 'object')
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, visit(v)]));
    return node;
  };
  return visit(target) as Target;
}

/**
 * A literal the explorer typed that equals a bound value still becomes the parameter; one
 * that holds a bound value as a whole token among other text ("[[Category:Support]]" with
 * category=Support) becomes a template, as the explorer was shown it: stored literally, a
 * replay on other inputs would write the explored value. A template's literal text is
 * treated the same, its inputs kept as they are.
 */
function parameteriseValue(value: Value, bound: Record<string, string>): Value {
  if ('template' in value) {
    const pieces = value.template.split(/(\{\{input\.[A-Za-z][A-Za-z0-9_]*\}\})/);
    const template = pieces
      .map((piece, index) => (index % 2 === 1 ? piece : parameteriseText(piece, bound)))
      .join('');
    return { template };
  }
  if (!('literal' in value)) return value;
  const match = Object.entries(bound).find(([, bound]) => bound === value.literal);
  if (match) return { input: match[0] };
  const template = parameteriseText(value.literal, bound);
  return template === value.literal ? value : { template };
}

function pathOf(url: string, origin: string, bound: Record<string, string>): string {
  // A path built from inputs stays a template (URL parsing would encode its braces).
  if (/^\/(?!\/)/.test(url) && placeholdersIn(url).length > 0) return url;
  const parsed = new URL(url, origin);
  if (parsed.origin !== origin) {
    throw new LiftError(
      'POLICY_BLOCKED',
      `A navigation left the start origin (${parsed.origin}); a capability stays on one origin.`,
    );
  }
  return parameteriseUrl(`${parsed.pathname}${parsed.search}`, bound);
}

/** The input whose bound value a URL component is, decoded as the application reads it. */
function inputOf(component: string, bound: Record<string, string>): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
  return Object.entries(bound).find(([, value]) => value !== '' && value === decoded)?.[0];
}

/**
 * A path segment or query value that is a bound input's value becomes its placeholder: a
 * navigation the explorer reached by clicking (`?id=2`, with id bound to 2) replays with each
 * call's id, not the discovery's. Replay fills it URL-encoded, as it was.
 */
export function parameteriseUrl(path: string, bound: Record<string, string>): string {
  const [pathname = '', query] = path.split(/\?(.*)/s, 2);
  const segments = pathname.split('/').map((segment) => {
    const name = segment ? inputOf(segment, bound) : undefined;
    return name ? `{{input.${name}}}` : segment;
  });
  const pairs = (query ?? '').split('&').map((pair) => {
    const at = pair.indexOf('=');
    if (at < 0) return pair;
    const name = inputOf(pair.slice(at + 1), bound);
    return name ? `${pair.slice(0, at + 1)}{{input.${name}}}` : pair;
  });
  return `${segments.join('/')}${query === undefined ? '' : `?${pairs.join('&')}`}`;
}

/**
 * Turns what executed into a capability: executed actions only, bound values back into
 * typed parameters, semantic targets only, each step with the postcondition the next one
 * relies on, required output reads and a final checkpoint against the bound inputs.
 */
function valueCheck(check: CheckpointDraft, bound: Record<string, string>) {
  return {
    target: parameterise(check.target, bound),
    equals: { input: check.input },
    match: check.match ?? 'exact',
  };
}

/** Inputs no step types, chooses by or navigates with: the checkpoint alone cannot make a replay use one. */
function unusedInputs(steps: Step[], inputs: CompileInput['inputs']): string[] {
  const used = new Set(steps.flatMap((step) => placeholdersIn(step)));
  for (const step of steps) {
    if ((step.op === 'fill' || step.op === 'type' || step.op === 'select') && 'input' in step.value)
      used.add(step.value.input);
  }
  return inputs.map((input) => input.name).filter((name) => !used.has(name));
}

/** Actions whose target also named other elements of the page they ran on: a replay could pick another. */
function notUniqueTargets(actions: ExecutedAction[]): string[] {
  return actions.flatMap((action, index) =>
    action.notUnique && 'target' in action
      ? [
          `action ${index + 1} (${action.op} ${describeScopedLocator(action.target)}) names more than one element of its page`,
        ]
      : [],
  );
}

/**
 * A value typed into the page that nothing sends: no click or key press after the last fill,
 * select or check, and no read of another element that could show what it changed (a live
 * filter). A write compiled so would "succeed" without writing anything.
 */
function unsubmitted(steps: Draft[]): string | undefined {
  const last = steps.findLastIndex(
    (step) => step.op === 'fill' || step.op === 'type' || step.op === 'select' || step.op === 'check',
  );
  if (last < 0) return undefined;
  const field = steps[last] as Extract<Draft, { target: Target }>;
  const after = steps.slice(last + 1);
  const sent = after.some((step) => step.op === 'click' || step.op === 'press' || step.op === 'navigate');
  const readsElsewhere = after.some(
    (step) => step.op === 'read' && JSON.stringify(step.target) !== JSON.stringify(field.target),
  );
  if (sent || readsElsewhere) return undefined;
  return `the ${field.op} of ${describeScopedLocator(field.target)} is never submitted: click the form's button (or press Enter in the field) before complete, or the capability types values and sends nothing`;
}

/**
 * Literals of the steps and the checkpoint that only this run made (today's date, the new
 * record's number): a replay on other inputs, another day, would look for what is not there.
 */
function madeByThisRun(steps: Step[], input: CompileInput): string[] {
  if (!input.runTexts) return [];
  const produced = runProduced(input.runTexts);
  const problems: string[] = [];
  const look = (where: string, value: unknown) => {
    for (const literal of literalsIn(value)) {
      const why = produced(literal);
      if (why) {
        problems.push(
          `${where} holds '${literal}', and ${why}: read it as an output instead (a read step, or complete's "from"), or name something that does not change from run to run`,
        );
        return;
      }
    }
  };
  steps.forEach((step, index) => {
    if ('target' in step) look(`step ${index + 1} (${step.op})`, step.target);
  });
  const checkpoint = input.checkpoint;
  if (checkpoint) {
    look('the checkpoint', checkpoint.target);
    for (const [index, check] of (checkpoint.values ?? []).entries())
      look(`checkpoint value ${index + 1}`, check.target);
  }
  return problems;
}

export function compileCapability(input: CompileInput): Capability {
  return compileWithTraces(input).capability;
}

/** The capability, and what the compiler knows of each of its steps for the rehearsal. */
export function compileWithTraces(input: CompileInput): { capability: Capability; traces: StepTrace[] } {
  const problems: string[] = [...notUniqueTargets(input.actions)];
  const bound = input.bound;
  const dialogs: string[] = [];
  const pending: Draft[] = [];
  /** Each pending step's trace, by the step itself. */
  const traceOf = new Map<Draft, ActionTrace | undefined>();
  for (const action of input.actions) {
    const before = pending.length;
    switch (action.op) {
      case 'dialog':
        if (action.accepted) dialogs.push(action.message.slice(0, 200));
        break;
      case 'navigate':
        pending.push({ op: 'navigate', path: pathOf(action.url, input.start.origin, bound) });
        break;
      case 'fill':
      case 'type':
      case 'select':
        pending.push({
          op: action.op,
          target: parameterise(action.target, bound),
          value: parameteriseValue(action.value, bound),
          ...(action.op === 'type' && action.clear === false ? { clear: false } : {}),
        });
        break;
      case 'check':
        pending.push({ op: 'check', target: parameterise(action.target, bound), checked: action.checked });
        break;
      case 'press':
        pending.push({ op: 'press', target: parameterise(action.target, bound), key: action.key });
        break;
      case 'click':
      case 'wait_for':
        pending.push({ op: action.op, target: parameterise(action.target, bound) });
        break;
      case 'read':
        pending.push({ op: 'read', target: parameterise(action.target, bound), output: action.output });
        break;
    }
    if (pending.length > before) traceOf.set(pending.at(-1)!, action.trace);
  }

  // A later read of the same output replaces an earlier one; the last value is the answer.
  const lastRead = new Map<string, number>();
  pending.forEach((step, index) => {
    if (step.op === 'read') lastRead.set(step.output, index);
  });
  const kept = pending.filter((step, index) => step.op !== 'read' || lastRead.get(step.output) === index);

  const steps: Step[] = kept.map((step, index) => {
    const next = kept[index + 1];
    const nextTarget = next && 'target' in next ? next.target : undefined;
    let expect: Postcondition = { kind: 'none' };
    // Typed at the caret, the field holds more than the value: the step checks what it added.
    if (step.op === 'type' && step.clear === false) {
      expect = { kind: 'none' };
    } else if (step.op === 'fill' || step.op === 'type') {
      expect = { kind: 'value', target: step.target, equals: step.value };
    } else if (step.op === 'check') {
      expect = { kind: 'checked', target: step.target, checked: step.checked };
    } else if ((step.op === 'click' || step.op === 'navigate' || step.op === 'press') && nextTarget) {
      expect = { kind: 'visible', target: nextTarget };
    } else if (step.op === 'wait_for') {
      expect = { kind: 'visible', target: step.target };
    }
    // The page's structure where the step ran tells a missing record from another screen at replay.
    const page = traceOf.get(step)?.page;
    const onPage = page && 'target' in step ? { onPage: page } : {};
    const writes = traceOf.get(step)?.wrote ? { writes: true } : {};
    return { version: 1, ...step, expect, ...onPage, ...writes } as Step;
  });
  const traces: StepTrace[] = kept.map((step) => {
    const trace = traceOf.get(step);
    return {
      wrote: trace?.wrote ?? false,
      ...(trace ? { urlAfter: trace.urlAfter } : {}),
      ...(trace?.framesAfter ? { framesAfter: trace.framesAfter } : {}),
    };
  });

  for (const output of input.outputs) {
    if (!lastRead.has(output.name) && !output.from)
      problems.push(
        `output '${output.name}' was never read (act with {"op":"read","target":…,"as":"${output.name}"})`,
      );
  }
  if (!input.checkpoint) {
    problems.push(
      'no final checkpoint: complete must name a target that shows a bound input (e.g. the member ID cell)',
    );
  }
  const never = unsubmitted(kept);
  if (never) problems.push(never);
  const unchecked = uncheckedInputs(steps, input.checkpoint);
  if (unchecked.length > 0) {
    problems.push(
      `the checkpoint never reads back ${unchecked.map((name) => `'${name}'`).join(', ')}, typed into the page: name where the resulting page shows each (checkpoint.values: [{"target":…,"input":"${unchecked[0]}"}]), or a replay could report success with the wrong value`,
    );
  }
  const unused = unusedInputs(steps, input.inputs);
  if (unused.length > 0) {
    problems.push(
      `no step uses the input${unused.length > 1 ? 's' : ''} ${unused.map((name) => `'${name}'`).join(', ')}: the capability would do the same whatever ${unused.length > 1 ? 'they hold' : 'it holds'}; type it ({"op":"fill",…,"value":{"input":"${unused[0]}"}}), choose by it (a row or link whose text is it), navigate with {{input.${unused[0]}}}, or leave it out of the task`,
    );
  }
  problems.push(...madeByThisRun(steps, input));
  if (steps.length === 0) problems.push('no action executed');
  if (problems.length > 0) {
    throw new LiftError('CHECK_FAILED', `The capability cannot be compiled: ${problems.join('; ')}.`, {
      hint: 'Nothing was written. Execute the missing reads, then call complete again with outputs and a checkpoint.',
      details: { problems },
    });
  }
  const checkpoint = input.checkpoint!;
  const raw = {
    schemaVersion: CAPABILITY_SCHEMA_VERSION,
    name: input.name,
    intent: input.intent,
    inputs: input.inputs,
    outputs: input.outputs,
    preconditions: input.start,
    steps,
    outcomes: input.outcomes,
    dialogs,
    checkpoint: {
      ...valueCheck(checkpoint, bound),
      ...(checkpoint.values ? { values: checkpoint.values.map((check) => valueCheck(check, bound)) } : {}),
    },
    ...(input.signs && input.signs.length > 0 ? { signs: input.signs } : {}),
    ...(input.errorPages && input.errorPages.length > 0 ? { errorPages: input.errorPages } : {}),
    provenance: input.provenance,
  };
  const result = validateCapability(raw);
  if (!result.success) {
    throw new LiftError(
      'CHECK_FAILED',
      `The compiled capability does not validate: ${result.issues.join('; ')}.`,
      {
        hint: 'Nothing was written. The issues name the step or field to fix.',
        details: { issues: result.issues },
      },
    );
  }
  return { capability: result.data, traces };
}
