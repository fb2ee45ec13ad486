import { z } from 'zod';
import { OutputSourceSchema, type OutputSpec } from '../../capability/capability.js';
import { comparable, describeNormalise, NormaliseSchema } from '../../capability/normalise.js';
import { parseTypedValue } from '../../capability/typed.js';
import { isLiftError } from '../../contract/errors.js';
import { RefSchema } from '../../rungs/ui/actions.js';
import { type Target, TargetSchema } from '../../rungs/ui/locator.js';
import { type CheckpointDraft, type CompileInput, compileCapability } from '../compile.js';
import type { ExplorerContext, LeftOutAction } from '../explorer-context.js';
import { learnSign, type OutcomeExample } from '../rehearse.js';
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
   * Inputs for which the application answers otherwise: the steps are rehearsed with each
   * (never past a step that could change anything, for already_exists), and what the page
   * shows where it parts from the found path is what replay answers that outcome from.
   */
  examples: z
    .array(
      z.strictObject({
        outcome: z.enum(['not_found', 'already_exists']),
        inputs: z.record(z.string().min(1).max(64), z.string().min(1).max(500)),
      }),
    )
    .max(2)
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
  const unique = await context.ui.checkTarget(target);
  if (unique) return unique;
  if (!('ref' in target)) return target;
  const resolved = context.ui.refs().get(target.ref)?.target;
  if (!resolved) {
    throw context.refuse('BAD_INPUT', `[${target.ref}] is not a ref of the latest observation.`, {
      hint: 'Observe again and name the element that shows the bound input.',
    });
  }
  return resolved;
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

/** An example names a value for every input, and an outcome the task may answer. */
function checkExample(context: ExplorerContext, example: OutcomeExample): OutcomeExample {
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

export const completeTool = defineExplorerTool({
  name: 'complete',
  title: 'Complete the task',
  description:
    'Declare the task done: name the outputs you read and the final checkpoint, a target on the page that shows a bound input (for example the member ID cell), compared with that input on every replay. The answer lists every action left out of the capability (rejected, without effect, unexpected) and why.' +
    ' A comparison takes "normalise" when the page shows the value its own way: {"target": {"ref": "e12"}, "input": "hours", "normalise": "duration"} (1.5 typed, 1:30 shown), "number" (1,234.50), "date" (7 December 2026 for 2026-12-07; {"date": {"order": "dmy"}} for 07/12/2026), "trimmed", "case-insensitive", {"list": {"separators": [","]}} ("editors, user" for editors,user).' +
    ' A value of checkpoint.values may compare with an output instead of an input, such as a created record\'s id taken from the resulting page with "from": {"target": {"ref": "e7"}, "output": "ticketId"}.' +
    ' A checkpoint target reads a field\'s value (a textarea, an unnamed box, a select\'s chosen option) and a text pattern\'s capture ({"frame": [], "locator": {"by": "text", "pattern": "Showing \\d+–\\d+ of (\\d+)"}}).',
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
    const key = await checkDraft(context, args.checkpoint, true);
    const values: CheckpointDraft[] | undefined = args.checkpoint.values ? [] : undefined;
    for (const check of args.checkpoint.values ?? []) values!.push(await checkDraft(context, check, false));
    const outputs = await outputsFromPage(context, args);
    checkCovered(context, args);
    const { task } = context;
    const examples = (args.examples ?? []).map((example) => checkExample(context, example));
    try {
      const input: CompileInput = {
        name: task.name,
        intent: task.intent,
        inputs: task.inputs,
        outputs,
        bound: task.bound,
        start: context.start(),
        actions: context.record.executed,
        checkpoint: { ...key, ...(values ? { values } : {}) },
        outcomes: [
          ...new Set([...(task.outcomes ?? ['found', 'not_found']), ...examples.map((e) => e.outcome)]),
        ],
        ...(context.record.errorPages.size > 0 ? { errorPages: [...context.record.errorPages] } : {}),
        provenance: context.provenance(),
      };
      let capability = compileCapability(input);
      if (examples.length > 0) {
        const signs = [];
        for (const example of examples)
          signs.push(await learnSign(context.ui, capability, example, context.record.seenTexts));
        context.emit('complete-signs-learned', {
          signs: signs.map((sign) => ({
            outcome: sign.outcome,
            after: sign.after,
            shows: sign.shows.length,
          })),
        });
        capability = compileCapability({ ...input, signs });
      }
      const { revision, file } = await context.complete(capability);
      // Nothing is dropped in silence: every action not in the capability, and why.
      return {
        revision,
        name: capability.name,
        steps: capability.steps.length,
        ...(file ? { file } : {}),
        left_out: leftOut(context),
      };
    } catch (error) {
      // The compiler refuses what would not replay: a rejection the explorer can correct.
      if (!isLiftError(error)) throw error;
      context.emit('complete-rejected', { code: error.code, message: error.message });
      const left = leftOut(context);
      const also = left.length ? ` Left out of the capability: ${left.map(describeLeftOut).join('; ')}.` : '';
      throw context.refuse(error.code, `${error.message}${also}`, error.hint ? { hint: error.hint } : {});
    }
  },
});
