import type { AnyTool } from '../../contract/define-tool.js';
import { actWindow, actWindowWithApproval } from './act-tool.js';
import { observeWindow } from './observe-tool.js';
import { readClipboard, startProgram } from './program-tools.js';

export { DESKTOP_SERVICE, DESKTOP_SETTINGS_SERVICE } from './context.js';
export type { DesktopSession, DesktopSettings } from './session.js';

/** The desktop rung's tools. Nothing starts until one of them is called. */
export const tools: AnyTool[] = [
  startProgram,
  observeWindow,
  actWindow,
  actWindowWithApproval,
  readClipboard,
];
