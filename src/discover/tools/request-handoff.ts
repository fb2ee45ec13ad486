import { z } from 'zod';
import { LiftError } from '../../contract/errors.js';
import { defineExplorerTool } from './tool.js';

export const HandoffArgsSchema = z.strictObject({
  reason: z.string().min(1).max(500),
});
export type HandoffArgs = z.infer<typeof HandoffArgsSchema>;

/** Waits for the person, or throws TIMEOUT when they have not finished by the deadline. */
async function waitForPerson(
  handoff: (reason: string, deadlineMs: number) => Promise<void>,
  reason: string,
  deadlineMs: number,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      handoff(reason, deadlineMs),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new LiftError('TIMEOUT', `Nobody finished the handoff within ${deadlineMs} ms.`)),
          deadlineMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export const requestHandoffTool = defineExplorerTool({
  name: 'request_handoff',
  title: 'Hand the page to a person',
  description:
    'Ask a person to do what you may not or cannot (sign in again, a second factor, a captcha). The session pauses until they are done.',
  input: HandoffArgsSchema,
  example: { reason: 'The session expired; please sign in again.' },
  effect: 'read',
  idempotent: false,
  async handle(context, args) {
    const { handoff } = context;
    context.emit('handoff-requested', { reason: args.reason, attended: handoff !== undefined });
    if (!handoff) {
      throw new LiftError(
        'HANDOFF_REQUIRED',
        'No person is attending this session, so nobody can take over.',
        {
          hint: 'Explore step by step with lift session, where a person answers lift session handoff ID with lift session resume ID, or end the session.',
        },
      );
    }
    const t0 = context.now();
    try {
      await waitForPerson(handoff, args.reason, context.handoffDeadlineMs);
    } catch (error) {
      context.emit('handoff-end', { done: false, ms: context.now() - t0 });
      throw error;
    }
    // What ran before the handoff belongs to a page that is gone: compile one clean pass.
    await context.ui.open(context.task.startUrl);
    context.record.reset();
    context.emit('handoff-end', { done: true, ms: context.now() - t0 });
    return {
      resumed: true,
      message: 'The person is done. The session is back on the start page; repeat the task from there.',
    };
  },
});
