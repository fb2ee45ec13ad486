import type { AnyTool } from '../../contract/define-tool.js';
export const tools: AnyTool[] = [];
