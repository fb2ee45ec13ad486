import type { AnyTool } from '../../contract/define-tool.js';
import { drawHousePlan } from './draw-house-plan.js';
import { resizeRoom } from './resize-room.js';
import { setSheet } from './set-sheet.js';

/** House plans drawn as DXF, printed by LibreCAD, and edited through their plan file. */
export const tools: AnyTool[] = [drawHousePlan, resizeRoom, setSheet];
