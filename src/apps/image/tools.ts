import type { AnyTool } from '../../contract/define-tool.js';
import { composeLayeredImage } from './compose-layered-image.js';

/** Layered images written as PSD with ag-psd and read back by ImageMagick. */
export const tools: AnyTool[] = [composeLayeredImage];
