import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { DiscoverySession, ToolReply } from '../session.js';
import type { Explorer } from './explorer.js';

/** A scripted explorer's script: tool calls in order, exactly as a model would send them. */
export const ScriptSchema = z.strictObject({
  /** Says plainly that no model chose these calls. */
  explorer: z.literal('scripted'),
  description: z.string().max(500).optional(),
  calls: z
    .array(z.strictObject({ tool: z.string().min(1).max(64), args: z.unknown() }))
    .min(1)
    .max(200),
});
export type Script = z.infer<typeof ScriptSchema>;
export type ScriptCall = Script['calls'][number];

/**
 * The scripted explorer: a JSON list of tool calls, for tests and the offline demo. It is
 * not a model and says so; every call still goes through the session's four tools, so each
 * action is validated, executed on the live page and compiled for real.
 */
export class ScriptedExplorer implements Explorer {
  readonly kind = 'scripted' as const;
  readonly #script: Script;
  readonly replies: Array<{ tool: string; reply: ToolReply }> = [];

  constructor(script: Script) {
    this.#script = ScriptSchema.parse(script);
  }

  static fromFile(file: string): ScriptedExplorer {
    return new ScriptedExplorer(ScriptSchema.parse(JSON.parse(readFileSync(file, 'utf8'))));
  }

  async explore(session: DiscoverySession): Promise<void> {
    for (const call of this.#script.calls) {
      if (session.outcome !== 'running') return;
      const reply = await session.call(call.tool, call.args);
      this.replies.push({ tool: call.tool, reply });
    }
    if (session.outcome === 'running') session.abandon('the script ended without a successful complete');
  }
}
