import { z } from 'zod';
import { isLiftError } from '../../contract/errors.js';
import { RefSchema } from '../../rungs/ui/actions.js';
import { type Target, TargetSchema } from '../../rungs/ui/locator.js';
import { compileCapability } from '../compile.js';
import type { ExplorerContext } from '../explorer-context.js';
import { defineExplorerTool } from './tool.js';

const CheckArgsSchema = z.strictObject({
  target: z.union([RefSchema, TargetSchema]),
  input: z.string().min(1).max(64),
  match: z.enum(['exact', 'contains']).optional(),
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
});
export type CompleteArgs = z.infer<typeof CompleteArgsSchema>;

/** The checkpoint's target: a semantic target as given, or the one a ref of the latest observation resolved to. */
function checkpointTarget(context: ExplorerContext, check: CheckArgs): Target {
  const { target } = check;
  if (!('ref' in target)) return target;
  const resolved = context.ui.refs().get(target.ref)?.target;
  if (!resolved) {
    throw context.refuse('BAD_INPUT', `[${target.ref}] is not a ref of the latest observation.`, {
      hint: 'Observe again and name the element that shows the bound input.',
    });
  }
  return resolved;
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

export const completeTool = defineExplorerTool({
  name: 'complete',
  title: 'Complete the task',
  description:
    'Declare the task done: name the outputs you read and the final checkpoint, a target on the page that shows a bound input (for example the member ID cell), compared with that input on every replay.',
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
    const target = checkpointTarget(context, args.checkpoint);
    const values = args.checkpoint.values?.map((check) => ({
      target: checkpointTarget(context, check),
      input: check.input,
      ...(check.match ? { match: check.match } : {}),
    }));
    checkCovered(context, args);
    const { task } = context;
    try {
      const capability = compileCapability({
        name: task.name,
        intent: task.intent,
        inputs: task.inputs,
        outputs: task.outputs,
        bound: task.bound,
        start: context.start(),
        actions: context.record.executed,
        checkpoint: {
          target,
          input: args.checkpoint.input,
          ...(args.checkpoint.match ? { match: args.checkpoint.match } : {}),
          ...(values ? { values } : {}),
        },
        outcomes: task.outcomes ?? ['found', 'not_found'],
        provenance: context.provenance(),
      });
      const { revision } = await context.complete(capability);
      return { revision, name: capability.name, steps: capability.steps.length };
    } catch (error) {
      // The compiler refuses what would not replay: a rejection the explorer can correct.
      if (!isLiftError(error)) throw error;
      context.emit('complete-rejected', { code: error.code, message: error.message });
      throw context.refuse(error.code, error.message, error.hint ? { hint: error.hint } : {});
    }
  },
});
