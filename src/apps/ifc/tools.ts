import type { AnyTool } from '../../contract/define-tool.js';
import { exportBuildingModel } from './export-building-model.js';

/** House plans as IFC4 building models, written by web-ifc and read back by IFC++. */
export const tools: AnyTool[] = [exportBuildingModel];
