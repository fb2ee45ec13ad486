import { z } from 'zod';
import { defineExplorerTool } from './tool.js';

export const ObserveArgsSchema = z.strictObject({
  /** Also save a masked screenshot (bound and secret regions blacked out) and return its path. */
  screenshot: z.boolean().optional(),
  /** Show the rows of a long table that contain this value (a bound input as {{input.NAME}}). */
  find: z
    .strictObject({ match: z.string().min(1).max(200), table: z.string().max(200).optional() })
    .optional(),
});
export type ObserveArgs = z.infer<typeof ObserveArgsSchema>;

export const observeTool = defineExplorerTool({
  name: 'observe',
  title: 'Observe the page',
  description:
    'Read the current page: a bounded, redacted accessibility snapshot with a [ref] per actionable element. Bound inputs appear as ⟦input:NAME⟧ and hidden values as ⟦hidden:…⟧; never type those back.',
  input: ObserveArgsSchema,
  example: {},
  effect: 'read',
  idempotent: true,
  async handle(context, args) {
    const { observation, screenshotPath } = await context.ui.observe({
      ...(args.screenshot ? { screenshot: true } : {}),
      ...(args.find ? { find: args.find } : {}),
    });
    context.record.observationTokens.push(observation.tokens);
    context.emit('page-observed', {
      tokens: observation.tokens,
      full_tokens: observation.fullTokens,
      truncated: observation.truncated,
      state: observation.state,
    });
    return {
      state: observation.state,
      tokens: observation.tokens,
      truncated: observation.truncated,
      observation: observation.text,
      ...(screenshotPath ? { screenshot: screenshotPath } : {}),
    };
  },
});
