import type { DiscoverySession } from '../session.js';

/** What every explorer is told: the task, the inputs by name, the outputs by name and type. */
export interface ExplorerBrief {
  task: string;
  inputs: string[];
  outputs: Array<{ name: string; type: string }>;
  startUrl: string;
}

/** Something that drives a discovery session through the four tools until it completes or gives up. */
export interface Explorer {
  readonly kind: 'scripted' | 'model' | 'mcp' | 'cli';
  readonly model?: string;
  /** Model calls and tokens spent, for explorers that use a model. */
  readonly usage?: { calls: number; inputTokens: number; outputTokens: number };
  explore(session: DiscoverySession, brief: ExplorerBrief): Promise<void>;
}
