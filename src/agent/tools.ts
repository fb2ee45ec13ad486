import type { AnyTool } from '../contract/define-tool.js';
import { createRunChain } from './chain.js';

/** The agent's built-in tools: run_chain, listed like any other tool. */
export const tools: AnyTool[] = [createRunChain()];
