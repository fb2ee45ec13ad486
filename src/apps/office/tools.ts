import type { AnyTool } from '../../contract/define-tool.js';
import { buildDeck } from './build-deck.js';
import { buildReport } from './build-report.js';
import { buildWorkbook } from './build-workbook.js';
import { convertDocument } from './convert-document.js';

/** Office documents built through their file formats, computed and rendered by LibreOffice. */
export const tools: AnyTool[] = [buildWorkbook, buildDeck, buildReport, convertDocument];
