import type { Page } from 'playwright-core';
import type { Capability, OutputSpec, Rehearsal, Step } from '../capability/capability.js';
import { parseTypedValue } from '../capability/typed.js';
import { isLiftError, LiftError } from '../contract/errors.js';
import { type ReplayOptions, type ReplayResult, replayCapability } from '../replay/engine.js';
import { frameAt } from '../rungs/ui/frame-at.js';
import type { StepTrace } from './compile.js';
import { parameteriseUrl } from './compile.js';

/** An example the explorer gave at complete: inputs, the outcome they must answer, and for a found one what it reads. */
export interface RehearsalExample {
  outcome: 'found' | 'not_found' | 'already_exists';
  inputs: Record<string, string>;
  outputs?: Record<string, string> | undefined;
}

/** What a rehearsal runs: the compiled capability and what discovery knows of its steps and reads. */
export interface RehearsalPlan {
  capability: Capability;
  traces: readonly StepTrace[];
  /** The discovery's bound inputs. */
  bound: Record<string, string>;
  /** What discovery read, raw, by output name: the rehearsal must read the same. */
  reads: Record<string, string>;
  examples: readonly RehearsalExample[];
  /** The step after which the capability has written (its last write), or undefined for one that only reads. */
  writeAt: number | undefined;
}

/** How the rehearsal replays on a page: everything of ReplayOptions but the page itself. */
export type RehearsalReplay = Omit<ReplayOptions, 'page'>;

/** Thrown by the guard of a rehearsal that must never write, the moment a replay would. */
class WouldWrite extends Error {}

/**
 * Proves a compiled capability before it exists, on a fresh page of the discovery's browser
 * context (its profile and sign-in): one that only reads replays whole on the discovery's
 * inputs and on each example; one that writes replays only what follows its write, from the
 * page that write led to, never the write itself, and its examples only up to the step before
 * anything could be written. Each run must answer as discovery did: the same outcome, the
 * checkpoint passed, the same values read. The first run that does not is the correction.
 */
export async function rehearse(
  newPage: () => Promise<Page>,
  plan: RehearsalPlan,
  replay: RehearsalReplay,
): Promise<Rehearsal> {
  const runs: Rehearsal['runs'] = [];
  const writes = plan.writeAt !== undefined;
  if (writes && isAnswerMessage(plan.capability.checkpoint.target)) {
    // The write's only evidence is the answer to it ("Issue #13 created."), which no fresh
    // visit shows again: discovery saw it, and a replay checks it where it is shown.
    runs.push(ANSWER_RUN);
  } else if (writes) {
    try {
      const first = await runOn(
        newPage,
        readBack(plan),
        plan.bound,
        { ...replay, layoutTolerant: true, afterStart: framesWhereTheWriteLeftThem(plan) },
        READ_BACK,
      );
      expectFound(first, plan, plan.reads, READ_BACK);
      runs.push({
        kind: 'read_back',
        inputs: 'discovery',
        outcome: first.outcome,
        ms: Math.round(first.durationMs),
      });
    } catch (error) {
      // A capability that never leaves the page its write led to reads the application's answer
      // (a deleted row's "1 row deleted.", a sent message's notice), which a fresh visit may not
      // show again and nothing else can: that is all the proof such a write has. One that goes
      // on to where the record lives must read it back there.
      // A checkpoint that read the page and found another value is no answer gone: it is wrong.
      // One whose target a fresh visit does not show (the moved page's link) is the answer gone.
      const checkpointFailed =
        isLiftError(error) &&
        error.details?.replayCode === 'CHECK_FAILED' &&
        error.details.checkpointTarget !== 'absent';
      if (!isLiftError(error) || checkpointFailed || leavesTheAnswerPage(plan)) throw error;
      runs.push(ANSWER_RUN);
    }
  } else {
    const first = await runOn(newPage, plan.capability, plan.bound, replay, 'the discovery’s inputs');
    expectFound(first, plan, plan.reads, 'the replay on the discovery’s inputs');
    runs.push({
      kind: 'replay',
      inputs: 'discovery',
      outcome: first.outcome,
      ms: Math.round(first.durationMs),
    });
  }
  for (const example of plan.examples) {
    const guard =
      plan.writeAt === undefined
        ? {}
        : {
            markStarted: () => {
              throw new WouldWrite();
            },
          };
    const result = await runOn(
      newPage,
      plan.capability,
      example.inputs,
      { ...replay, ...guard },
      `the ${example.outcome} example`,
    ).catch((error: unknown) => {
      if (error instanceof WouldWrite || (isLiftError(error) && error.cause instanceof WouldWrite))
        throw refusal(
          `the ${example.outcome} example reached a step that could write before the replay knew its answer`,
          `Give an example for which the application answers ${example.outcome} before the form is sent, or leave the example out.`,
        );
      throw error;
    });
    if (result.outcome !== example.outcome)
      throw refusal(
        `the ${example.outcome} example answered ${result.outcome}`,
        example.outcome === 'found'
          ? 'Give inputs of a record the application has.'
          : `Give inputs for which the application answers ${example.outcome}, and check that the page then shows it in its own words.`,
      );
    if (example.outcome === 'found') expectFound(result, plan, example.outputs ?? {}, 'the found example');
    runs.push({
      kind: 'example',
      inputs: example.outcome,
      outcome: result.outcome,
      ms: Math.round(result.durationMs),
    });
  }
  return { at: new Date().toISOString(), passed: true, runs };
}

/** One replay on a fresh page, closed after; a failure becomes the explorer's correction. */
async function runOn(
  newPage: () => Promise<Page>,
  capability: Capability,
  inputs: Record<string, string>,
  replay: RehearsalReplay,
  what: string,
): Promise<ReplayResult> {
  const page = await newPage();
  try {
    return await replayCapability(capability, typedInputs(capability, inputs), { ...replay, page });
  } catch (error) {
    if (error instanceof WouldWrite || !isLiftError(error)) throw error;
    if (error.cause instanceof WouldWrite) throw error;
    const hint = what === READ_BACK && error.code !== 'AUTH_REQUIRED' ? READ_BACK_HINT : hintFor(error);
    throw refusal(`${what} ended in ${error.code}: ${withoutValues(error.message)}`, hint, {
      replayCode: error.code,
      ...(error.details?.checkpointTarget === 'absent' ? { checkpointTarget: 'absent' } : {}),
    });
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** The checkpoint passed and every value read equals what discovery (or the example) read. */
function expectFound(
  result: ReplayResult,
  plan: RehearsalPlan,
  expected: Record<string, string>,
  what: string,
): void {
  if (result.outcome !== 'found')
    throw refusal(
      `${what} answered ${result.outcome}`,
      'Observe the page the capability starts on, and check that every step names what a fresh page shows.',
    );
  for (const [name, raw] of Object.entries(expected)) {
    if (!(name in result.outputs)) continue;
    const spec = plan.capability.outputs.find((output) => output.name === name) as OutputSpec | undefined;
    const wanted = spec ? parseTypedValue(raw, spec.type) : raw;
    if (wanted !== undefined && wanted !== result.outputs[name])
      throw refusal(
        `${what} read ${name} as another value than discovery did (same type, other value)`,
        `Read ${name} from the element that shows exactly it on every visit (a cell by its row and column, a field by its label), not one that changes between visits or depends on the page discovery left.`,
      );
  }
}

/**
 * The capability a write is read back with: what follows its last write, from the page that
 * write led to, loaded afresh. A capability whose checkpoint is on that very page waits for
 * the checkpoint's target there.
 */
function readBack(plan: RehearsalPlan): Capability {
  const { capability, traces, writeAt } = plan;
  const url = traces[writeAt!]?.urlAfter;
  const { origin } = capability.preconditions;
  const parsed = url ? new URL(url) : undefined;
  if (!parsed || parsed.origin !== origin)
    throw refusal(
      'the page the write led to is not on the capability’s origin, so its result cannot be read back',
      'End the capability on a page of the application that shows what was written.',
    );
  // The write's answer (its flash message, a link to the new record) is shown once, after the
  // write: a fresh visit reads back what the application stored, not what it said.
  const rest = capability.steps.slice(writeAt! + 1).filter((step) => !readsTheAnswer(step));
  const readInRest = new Set(rest.flatMap((step) => (step.op === 'read' ? [step.output] : [])));
  const outputs = capability.outputs.filter((output) =>
    output.from ? 'url' in output.from : readInRest.has(output.name),
  );
  const wait: Step = {
    version: 1,
    op: 'wait_for',
    target: capability.checkpoint.target,
    expect: { kind: 'visible', target: capability.checkpoint.target },
  };
  const { signs: _signs, paging: _paging, ...kept } = capability;
  const readBackOutputs = new Set(outputs.map((output) => output.name));
  // A value compared with an output only the write's answer gave (its new id) has nothing to
  // be compared with on a fresh visit; the record's key and its other values still are.
  const values = capability.checkpoint.values?.filter(
    (check) => !('output' in check.equals) || readBackOutputs.has(check.equals.output),
  );
  const { values: _values, ...checkpoint } = capability.checkpoint;
  return {
    ...kept,
    checkpoint: values && values.length > 0 ? { ...checkpoint, values } : checkpoint,
    preconditions: {
      ...capability.preconditions,
      path: parameteriseUrl(`${parsed.pathname}${parsed.search}`, {}),
    },
    outputs: outputs.length > 0 ? outputs : capability.outputs.slice(0, 0),
    steps: rest.length > 0 ? rest : [wait],
  };
}

const ANSWER_RUN: Rehearsal['runs'][number] = {
  kind: 'answer',
  inputs: 'discovery',
  outcome: 'found',
  ms: 0,
};

/** The capability goes somewhere after its write (a navigation): its read-back is no answer to the write. */
function leavesTheAnswerPage(plan: RehearsalPlan): boolean {
  return plan.capability.steps.slice(plan.writeAt! + 1).some((step) => step.op === 'navigate');
}

/** A status or alert message: what an application answers a write with, once. */
function isAnswerMessage(target: Capability['checkpoint']['target']): boolean {
  const { locator } = target;
  return locator.by === 'role' && (locator.role === 'status' || locator.role === 'alert');
}

/** A step after the write that only waits for or reads the write's answer message. */
function readsTheAnswer(step: Step): boolean {
  return (step.op === 'wait_for' || step.op === 'read') && isAnswerMessage(step.target);
}

/** Loads each named frame where the write left it: a form posted in a frame leaves the top page's URL as it was. */
function framesWhereTheWriteLeftThem(plan: RehearsalPlan): (page: Page) => Promise<void> {
  const frames = plan.traces[plan.writeAt!]?.framesAfter ?? [];
  return async (page) => {
    for (const { path, url } of frames) {
      const frame = await frameAt(page, path);
      if (frame && frame.url() !== url) await frame.goto(url, { waitUntil: 'load' }).catch(() => undefined);
    }
  };
}

/** The bound values as the capability's input types take them (the discovery binds strings). */
function typedInputs(capability: Capability, inputs: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    capability.inputs.map((spec) => [
      spec.name,
      parseTypedValue(inputs[spec.name] ?? '', spec.type) ?? inputs[spec.name],
    ]),
  );
}

const READ_BACK = 'the read-back';
/** A write's reads and checkpoint are replayed from a fresh visit of where the write led, which is what a read-back must survive. */
const READ_BACK_HINT =
  'A write is proved by reading its result back on a fresh visit, never by writing again: after the write, navigate (by URL where the page has one, with {{input.X}} for the inputs) to where the record lives (its own page, or the list filtered to it), read the outputs and place the checkpoint there. The page that answered the post is not shown again by a fresh visit.';

/** What to try next, by how the rehearsal's replay failed. */
function hintFor(error: LiftError): string {
  switch (error.code) {
    case 'SURFACE_CHANGED':
      return 'A fresh page of the same application does not offer that target: it may depend on the page discovery left (a hover, an open menu, a selection) or on this run’s data. Observe again and name it by what a fresh page shows; navigate by URL where the page has one.';
    case 'CHECK_FAILED':
      return 'The checkpoint did not show the input on a fresh visit: name a target that shows exactly the input, or give the checkpoint a normalisation that fits how the application prints it.';
    case 'AUTH_REQUIRED':
      return 'The fresh page was asked to sign in and could not: start the session with a sign-in recipe (--sign-in FILE), or sign in the browser profile first.';
    case 'TIMEOUT':
      return 'The application was too slow for the rehearsal; complete again when it answers.';
    default:
      return error.hint ?? 'Observe the page again and correct the step the message names.';
  }
}

/** A replay's message with what the page showed left out: the explorer never sees the application's values. */
function withoutValues(message: string): string {
  return message.replace(/'[^']*'/g, '…').replace(/"[^"]*"/g, '…');
}

function refusal(why: string, hint: string, details?: Record<string, unknown>): LiftError {
  return new LiftError(
    'CHECK_FAILED',
    `The capability was compiled but its rehearsal failed: ${why.replace(/\.+$/, '')}. Nothing was written.`,
    { hint, ...(details ? { details } : {}) },
  );
}

/**
 * Where a compiled capability writes: its last step that sent the application a request that
 * can change it (or that the safety classifier reads as irreversible). Undefined for one that
 * only looked, which the rehearsal may replay whole.
 */
export function lastWrite(traces: readonly StepTrace[]): number | undefined {
  const at = traces.findLastIndex((trace) => trace.wrote);
  return at >= 0 ? at : undefined;
}
