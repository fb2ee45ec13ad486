import { z } from 'zod';
import {
  type Capability,
  type OutcomeSign,
  OutputSourceSchema,
  type OutputSpec,
} from '../../capability/capability.js';
import { comparable, describeNormalise, NormaliseSchema } from '../../capability/normalise.js';
import { parseTypedValue } from '../../capability/typed.js';
import { isLiftError } from '../../contract/errors.js';
import { RefSchema } from '../../rungs/ui/actions.js';
import { type Target, TargetSchema } from '../../rungs/ui/locator.js';
import { type CheckpointDraft, type CompileInput, compileWithTraces } from '../compile.js';
import type { ExplorerContext, LeftOutAction } from '../explorer-context.js';
import { lastWrite } from '../rehearsal.js';
import { learnSign, type OutcomeExample } from '../rehearse.js';
import { COMPLETE_DESCRIPTION } from './complete-description.js';
import { defineExplorerTool } from './tool.js';

const CheckArgsSchema = z.strictObject({
  target: z.union([RefSchema, TargetSchema]),
  input: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('The bound input the target shows, compared with it on every replay ("email")'),
  output: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe(
      'Instead of input, in checkpoint.values only: an output the page gives by then (a created record\'s id from `from`), compared with what the target shows ("ticketId")',
    ),
  match: z.enum(['exact', 'contains']).optional(),
  normalise: NormaliseSchema.optional().describe(
    'How to compare when the application shows the value its own way: "trimmed", "case-insensitive", "number" (1,234.50 is 1234.5), "duration" (1:30 is 1.5 hours), "date" (12/07/2026 and 7 December 2026 are 2026-12-07; {"date": {"order": "dmy"}} for 07/12/2026), {"list": {"separators": [","]}} ("editors, user" is "editors,user", in any order). Absent: exactly as typed',
  ),
});
type CheckArgs = z.infer<typeof CheckArgsSchema>;

export const CompleteArgsSchema = z.strictObject({
  /** The outputs the task returns; each must have been read with {"op":"read","as":NAME}. */
  outputs: z.array(z.string().min(1).max(64)).min(1).max(20),
  /** Where the page shows a bound input, compared with it on every replay. */
  checkpoint: z.strictObject({
    ...CheckArgsSchema.shape,
    /** Where the resulting page shows each other value typed into it: a write reads back all it wrote. */
    values: z.array(CheckArgsSchema).min(1).max(20).optional(),
  }),
  // Described for the model, not only here: the tool's JSON schema is all it sees.
  from: z
    .record(z.string().min(1).max(64), OutputSourceSchema)
    .optional()
    .describe(
      'Outputs no read step reads, by name, for a create whose new id the page does not show in a cell: from the resulting URL ({"url": {"param": "id"}}), its status or flash message ({"message": {"pattern": "Post (\\\\d+) created"}}), or the link to the record ({"link": {"name": "View post", "param": "p"}})',
    ),
  /**
   * More inputs to rehearse the capability with: a record that does not exist (not_found), one
   * a write would duplicate (already_exists), or another record that exists (found), with what
   * it must read. For the first two, what the page shows where it parts from the found path
   * is what replay answers that outcome from; a capability that writes is never rehearsed past
   * a step that could write.
   */
  examples: z
    .array(
      z.strictObject({
        outcome: z.enum(['found', 'not_found', 'already_exists']),
        inputs: z.record(z.string().min(1).max(64), z.string().min(1).max(500)),
        outputs: z
          .record(z.string().min(1).max(64), z.string().min(1).max(500))
          .optional()
          .describe('For a found example: the values it must read, by output name'),
      }),
    )
    .max(4)
    .optional(),
});
export type CompleteArgs = z.infer<typeof CompleteArgsSchema>;

/**
 * The checkpoint's target: the one that names the element alone on the page now (its `nth`
 * kept, as an action's is, and a cell's table recorded), else a semantic target as given or
 * the one a ref of the latest observation resolved to.
 */
async function checkpointTarget(context: ExplorerContext, check: CheckArgs): Promise<Target> {
  const { target } = check;
  const checked = await context.ui.checkTarget(target);
  if (checked.target) return checked.target;
  if (checked.absent && !('ref' in target)) {
    // Stored as it is, it could only fail every replay: the rehearsal would say so later, and
    // less plainly than the page can now.
    throw context.refuse('BAD_INPUT', 'The checkpoint’s target matches nothing on the page now.', {
      hint: absentTargetHint(target.locator),
    });
  }
  if (!('ref' in target)) return target;
  const resolved = context.ui.refs().get(target.ref)?.target;
  if (!resolved) {
    throw context.refuse('BAD_INPUT', `[${target.ref}] is not a ref of the latest observation.`, {
      hint: 'Observe again and name the element that shows the bound input.',
    });
  }
  return resolved;
}

/** What to try when a checkpoint's semantic target matches nothing on the page discovery is on. */
function absentTargetHint(locator: Target['locator']): string {
  const whole =
    locator.by === 'role' && locator.exact !== false
      ? ' A role target matches the whole accessible name, as observe prints it after the role (a heading "Bug #⟦input:id⟧" is not named "#{{input.id}}"): write the whole name with {{input.X}} where the input stands, or add "exact": false to match a part of it.'
      : locator.by === 'text' && locator.text !== undefined
        ? ' A text target matches an element\'s whole text: for a value inside a line ("Note ⟦input:id⟧ by Jane Doe, updated …") give a "pattern" with one capture group instead of "text" ({"by":"text","pattern":"Note (\\d+) by"}); the group is what is compared.'
        : '';
  return `Observe the page and name the element that shows the bound input as observe prints it, or give its [ref].${whole}`;
}

/**
 * One comparison as the compiler takes it: a bound input (the key always), or an output of the
 * task, compared as the explorer said. The bound value must be one the normalisation can read
 * (a duration compared as a duration), or no replay could ever pass it.
 */
async function checkDraft(
  context: ExplorerContext,
  check: CheckArgs,
  key: boolean,
): Promise<CheckpointDraft> {
  const { task } = context;
  const named = [check.input, check.output].filter((name) => name !== undefined);
  if (named.length !== 1 || (key && check.output !== undefined)) {
    throw context.refuse(
      'BAD_INPUT',
      key
        ? 'The checkpoint compares its target with a bound input: name it as "input".'
        : 'Each checkpoint value names either "input" or "output", not both and not neither.',
      {
        hint: `Inputs: ${task.inputs.map((input) => input.name).join(', ')}; outputs: ${task.outputs.map((output) => output.name).join(', ')}.`,
      },
    );
  }
  if (check.output !== undefined && !task.outputs.some((output) => output.name === check.output)) {
    throw context.refuse('BAD_INPUT', `'${check.output}' is not an output of this task.`, {
      hint: `Outputs: ${task.outputs.map((output) => output.name).join(', ')}.`,
    });
  }
  const bound = check.input === undefined ? undefined : task.bound[check.input];
  if (bound !== undefined && !comparable(bound, check.normalise)) {
    throw context.refuse(
      'BAD_INPUT',
      `The value bound to ${check.input} cannot be compared ${describeNormalise(check.normalise)}: no replay could pass such a checkpoint.`,
      {
        hint: 'Leave normalise out, or choose the kind the value is (a number, a duration, a date, a list).',
      },
    );
  }
  const shared = {
    target: await checkpointTarget(context, check),
    ...(check.match ? { match: check.match } : {}),
    ...(check.normalise !== undefined ? { normalise: check.normalise } : {}),
  };
  return check.input !== undefined ? { ...shared, input: check.input } : { ...shared, output: check.output! };
}

/** Refuses a completion that does not cover the task: its input, and every output read and named. */
function checkCovered(context: ExplorerContext, args: CompleteArgs): void {
  const { task, record } = context;
  if (!task.inputs.some((input) => input.name === args.checkpoint.input)) {
    throw context.refuse('BAD_INPUT', `'${args.checkpoint.input}' is not an input of this task.`, {
      hint: `Inputs: ${task.inputs.map((input) => input.name).join(', ')}.`,
    });
  }
  const missing = task.outputs
    .filter((output) => !record.outputs.has(output.name))
    .map((output) => output.name);
  const unnamed = task.outputs
    .filter((output) => !args.outputs.includes(output.name))
    .map((output) => output.name);
  if (missing.length > 0 || unnamed.length > 0) {
    throw context.refuse(
      'CHECK_FAILED',
      `The task is not done: ${[...new Set([...missing, ...unnamed])].join(', ')} not read or not named.`,
      {
        hint: 'Read each output with {"op":"read","target":…,"as":"NAME"} and name them all in complete.outputs.',
      },
    );
  }
}

/** The actions not in the capability, as the reply lists them. */
function leftOut(context: ExplorerContext): LeftOutAction[] {
  return [...context.record.leftOut];
}

function describeLeftOut(entry: LeftOutAction): string {
  return `action ${entry.action} (${entry.op}): ${entry.reason}`;
}

/**
 * The task's outputs, those taken from the resulting page with their source; each is read now,
 * as replay will read it, and must hold a value of its type, as a read would.
 */
async function outputsFromPage(context: ExplorerContext, args: CompleteArgs): Promise<OutputSpec[]> {
  const sources = args.from ?? {};
  const { task } = context;
  const unknown = Object.keys(sources).filter((name) => !task.outputs.some((output) => output.name === name));
  if (unknown.length > 0) {
    throw context.refuse('BAD_INPUT', `'${unknown[0]}' is not an output of this task.`, {
      hint: `Outputs: ${task.outputs.map((output) => output.name).join(', ')}.`,
    });
  }
  const outputs: OutputSpec[] = [];
  for (const output of task.outputs) {
    const from = sources[output.name];
    if (!from) {
      outputs.push(output);
      continue;
    }
    const reading = await context.ui.readSource(from);
    if (!('raw' in reading) || parseTypedValue(reading.raw, output.type) === undefined) {
      const why = 'missing' in reading ? reading.missing : `what it holds is not a ${output.type}`;
      throw context.refuse('CHECK_FAILED', `The page gives no ${output.name}: ${why}.`, {
        hint: 'Name a source the resulting page holds (a URL parameter, a message pattern with one group, the exact name of a link), or read the value from the page instead.',
      });
    }
    context.record.outputs.set(output.name, reading.raw);
    outputs.push({ ...output, from });
  }
  return outputs;
}

type Example = NonNullable<CompleteArgs['examples']>[number];

/** An example names a value for every input, and an outcome the task may answer. */
function checkExample(context: ExplorerContext, example: Example): Example {
  const missing = context.task.inputs.filter((input) => example.inputs[input.name] === undefined);
  if (missing.length > 0) {
    throw context.refuse(
      'BAD_INPUT',
      `The ${example.outcome} example has no value for ${missing[0]!.name}.`,
      {
        hint: `An example gives every input: ${context.task.inputs.map((input) => input.name).join(', ')}.`,
      },
    );
  }
  return example;
}

/** The checkpoint as the compiler takes it, each target resolved from its ref. */
async function checkpointOf(
  context: ExplorerContext,
  args: CompleteArgs,
): Promise<NonNullable<CompileInput['checkpoint']>> {
  const key = await checkDraft(context, args.checkpoint, true);
  if (!args.checkpoint.values) return key;
  const values: CheckpointDraft[] = [];
  for (const check of args.checkpoint.values) values.push(await checkDraft(context, check, false));
  return { ...key, values };
}

function compileInputOf(
  context: ExplorerContext,
  outputs: OutputSpec[],
  checkpoint: NonNullable<CompileInput['checkpoint']>,
  examples: Example[],
): CompileInput {
  const { task, record } = context;
  return {
    name: task.name,
    intent: task.intent,
    inputs: task.inputs,
    outputs,
    bound: task.bound,
    start: context.start(),
    actions: record.executed,
    checkpoint,
    outcomes: [
      ...new Set([
        ...(task.outcomes ?? ['found', 'not_found']),
        ...examples.map((example) => example.outcome),
        // A write the application can refuse answers that refusal as an outcome of its own.
        ...(record.wrote ? (['rejected'] as const) : []),
      ]),
    ],
    ...(record.errorPages.size > 0 ? { errorPages: [...record.errorPages] } : {}),
    runTexts: {
      before: record.textsBeforeWrite,
      after: record.textsAfterWrite,
      typed: record.executed.flatMap((action) =>
        'value' in action && 'literal' in action.value ? [action.value.literal] : [],
      ),
      now: new Date(context.now()),
      wrote: record.wrote,
    },
    provenance: context.provenance(),
  };
}

/** What not_found and already_exists look like, learned from the examples of them on the discovery's page. */
async function learnSigns(context: ExplorerContext, capability: Capability, examples: Example[]) {
  const signs: OutcomeSign[] = [];
  for (const example of examples) {
    if (example.outcome === 'found') continue;
    const outcome: OutcomeExample = { outcome: example.outcome, inputs: example.inputs };
    // None for a record absent from a page built as discovery saw it: replay knows it by that.
    const sign = await learnSign(context.ui, capability, outcome, context.record.seenTexts);
    if (sign) signs.push(sign);
  }
  if (signs.length > 0)
    context.emit('complete-signs-learned', {
      signs: signs.map((sign) => ({
        outcome: sign.outcome,
        after: sign.after,
        shows: sign.shows.length,
        message: sign.message !== undefined,
      })),
    });
  return signs;
}

export const completeTool = defineExplorerTool({
  name: 'complete',
  title: 'Complete the task',
  description: COMPLETE_DESCRIPTION,
  input: CompleteArgsSchema,
  example: {
    outputs: ['savingsBalance', 'currency'],
    checkpoint: {
      target: { frame: ['Workspace'], locator: { by: 'cell', row: '…', column: 'Member ID' } },
      input: 'memberId',
    },
  },
  effect: 'reversible',
  idempotent: true,
  async handle(context, args) {
    const checkpoint = await checkpointOf(context, args);
    const outputs = await outputsFromPage(context, args);
    checkCovered(context, args);
    const examples = (args.examples ?? []).map((example) => checkExample(context, example));
    try {
      const input = compileInputOf(context, outputs, checkpoint, examples);
      let compiled = compileWithTraces(input);
      const signs = await learnSigns(context, compiled.capability, examples);
      if (signs.length > 0) compiled = compileWithTraces({ ...input, signs });
      const rehearsal = await context.ui.rehearse({
        capability: compiled.capability,
        traces: compiled.traces,
        bound: context.task.bound,
        reads: Object.fromEntries(context.record.outputs),
        examples,
        writeAt: lastWrite(compiled.traces),
      });
      context.emit('complete-rehearsed', {
        runs: rehearsal.runs.map((run) => `${run.kind}:${run.inputs}:${run.outcome}`),
      });
      const capability = { ...compiled.capability, rehearsal };
      const { revision, file } = await context.complete(capability);
      // Nothing is dropped in silence: every action not in the capability, and why.
      return {
        revision,
        name: capability.name,
        steps: capability.steps.length,
        rehearsal: rehearsal.runs.map((run) => `${run.kind} (${run.inputs}): ${run.outcome}`),
        ...(file ? { file } : {}),
        left_out: leftOut(context),
      };
    } catch (error) {
      // The compiler and the rehearsal refuse what would not replay: a rejection the explorer can correct.
      if (!isLiftError(error)) throw error;
      context.emit('complete-rejected', { code: error.code, message: error.message });
      const left = leftOut(context);
      const also = left.length ? ` Left out of the capability: ${left.map(describeLeftOut).join('; ')}.` : '';
      throw context.refuse(error.code, `${error.message}${also}`, error.hint ? { hint: error.hint } : {});
    }
  },
});
