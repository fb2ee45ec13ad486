import { z } from 'zod';
import { defineExplorerTool } from './tool.js';

export const ObserveArgsSchema = z.strictObject({
  /** Also save a masked screenshot (bound and secret regions blacked out) and return its path. */
  screenshot: z.boolean().optional(),
  /**
   * Show only what holds this text: lines of the page, and rows of its tables (or of the one
   * named). A bound input may be written as {{input.NAME}}.
   */
  find: z
    .strictObject({ match: z.string().min(1).max(200), table: z.string().max(200).optional() })
    .optional(),
  /** A long page is observed in pages of at most 2,000 tokens: which one, 1 for the first. */
  page: z.number().int().min(1).max(200).optional(),
});
export type ObserveArgs = z.infer<typeof ObserveArgsSchema>;

export const observeTool = defineExplorerTool({
  name: 'observe',
  title: 'Observe the page',
  description:
    'Read the current page: a bounded, redacted accessibility snapshot with a [ref] per actionable element. A long page comes in pages ({"page": 2}); {"find": {"match": TEXT}} shows only the lines and table rows holding TEXT. Bound inputs appear as ⟦input:NAME⟧ and hidden values as ⟦hidden:…⟧; never type those back.',
  input: ObserveArgsSchema,
  example: {},
  effect: 'read',
  idempotent: true,
  async handle(context, args) {
    const { observation, screenshotPath } = await context.ui.observe({
      ...(args.screenshot ? { screenshot: true } : {}),
      ...(args.find ? { find: args.find } : {}),
      ...(args.page ? { page: args.page } : {}),
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
      ...(observation.pages > 1 ? { page: observation.page, pages: observation.pages } : {}),
      observation: observation.text,
      ...(screenshotPath ? { screenshot: screenshotPath } : {}),
    };
  },
});
