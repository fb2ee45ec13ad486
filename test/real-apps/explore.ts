import type { Explorer } from '../../src/discover/explorers/explorer.js';
import type { DiscoverySession, ToolReply } from '../../src/discover/session.js';

/** What a live scripted explorer may do: the four tools, and reading refs out of what observe printed. */
export interface ExplorerMoves {
  /** Observes and returns the observation's text (throws when observe failed). */
  observe(args?: Record<string, unknown>): Promise<string>;
  /** Acts; returns each action's status and message. */
  act(actions: unknown[]): Promise<Array<{ status: string; message: string; code?: string }>>;
  complete(args: Record<string, unknown>): Promise<ToolReply>;
  /** The ref of the element printed as `[ref] role "name"` in the observation text. */
  ref(text: string, role: string, name: string | RegExp): { ref: string };
}

/** Counts of one discovery, for the closing note. */
export interface ExplorerCounts {
  calls: number;
  rejections: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Picks a ref from an observation's text by role and accessible name, the way a model reads
 * the observation: no selector, nothing known about the page's HTML. The name must be unique
 * among the lines of that role, or the explorer cannot know which one it means.
 */
export function refIn(text: string, role: string, name: string | RegExp): { ref: string } {
  const quoted = typeof name === 'string' ? escapeRegExp(JSON.stringify(name)) : `"${name.source}"`;
  const line = new RegExp(`\\[([A-Za-z0-9]+)\\] ${escapeRegExp(role)} ${quoted}`, 'g');
  const refs = [...text.matchAll(line)].map((match) => match[1]!);
  if (refs.length !== 1) {
    throw new Error(
      `The observation shows ${refs.length} ${role} named ${String(name)}; the explorer cannot choose.\n${text}`,
    );
  }
  return { ref: refs[0]! };
}

/**
 * A scripted explorer that reads each observation before it acts (unlike a fixed list of
 * calls): its moves are written as a function of what observe returned. No model chooses
 * anything; every call still goes through the session's four tools.
 */
export class LiveExplorer implements Explorer {
  readonly kind = 'scripted' as const;
  readonly counts: ExplorerCounts = { calls: 0, rejections: 0 };
  readonly log: Array<{ tool: string; reply: ToolReply }> = [];
  readonly #plan: (moves: ExplorerMoves) => Promise<void>;

  constructor(plan: (moves: ExplorerMoves) => Promise<void>) {
    this.#plan = plan;
  }

  async explore(session: DiscoverySession): Promise<void> {
    const call = async (tool: string, args: unknown): Promise<ToolReply> => {
      this.counts.calls++;
      const reply = await session.call(tool, args);
      this.log.push({ tool, reply });
      if (!reply.ok) this.counts.rejections++;
      return reply;
    };
    const moves: ExplorerMoves = {
      observe: async (args = {}) => {
        const reply = await call('observe', args);
        if (!reply.ok) throw new Error(`observe failed: ${reply.error} ${reply.message}`);
        return String(reply.observation);
      },
      act: async (actions) => {
        const reply = await call('act', { actions });
        if (!reply.ok)
          throw new Error(
            `act failed: ${reply.error} ${reply.message} ${reply.hint ?? ''} ${JSON.stringify(reply.results ?? [])}`,
          );
        const results = reply.results as Array<{ status: string; message: string; code?: string }>;
        this.counts.rejections += results.filter((result) => result.status === 'rejected').length;
        return results;
      },
      complete: (args) => call('complete', args),
      ref: refIn,
    };
    await this.#plan(moves);
    if (session.outcome === 'running') session.abandon('the explorer ended without a successful complete');
  }
}
