import type { AnyTool } from '../../contract/define-tool.js';
import { renderPlan3d } from './render-plan-3d.js';

/** House plans built and rendered in Blender, in background mode. */
export const tools: AnyTool[] = [renderPlan3d];
