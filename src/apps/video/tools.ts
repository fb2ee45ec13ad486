import type { AnyTool } from '../../contract/define-tool.js';
import { buildTimeline } from './build-timeline.js';

/** Video edits written as the editors' own files and rendered by Debian's melt. */
export const tools: AnyTool[] = [buildTimeline];
