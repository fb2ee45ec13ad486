import type { AnyTool } from '../../contract/define-tool.js';
import { chatHistory } from './history.js';
import { chatPost } from './post.js';
import { type ChatSettings, parseChatSettings } from './settings.js';
import { chatUndo } from './undo.js';

export { CHAT_SETTINGS_SERVICE, type ChatSettings } from './settings.js';

/**
 * The team-chat tools over one XMPP account: a post (with a file) held for review and read back
 * from the room's archive, its undo, and the room's history. Without settings they read lift.config
 * `settings.chat` (NOT_CONFIGURED without it).
 */
export function chatTools(settings?: ChatSettings): AnyTool[] {
  const resolved = settings ? parseChatSettings(settings) : undefined;
  return [chatPost(resolved), chatUndo(resolved), chatHistory(resolved)];
}
