import type { AnyTool } from '../../contract/define-tool.js';
import { emailDraftSave } from './draft-save.js';
import { emailDraftSend } from './draft-send.js';
import { emailFind } from './find.js';
import { type EmailSettings, parseEmailSettings } from './settings.js';

export { EMAIL_SETTINGS_SERVICE, type EmailSettings } from './settings.js';

/**
 * The email tools over one account: drafts saved over IMAP, a saved draft sent over SMTP
 * submission only after a person's signature, and search. Without settings they read lift.config
 * `settings.email` (NOT_CONFIGURED without it).
 */
export function emailTools(settings?: EmailSettings): AnyTool[] {
  const resolved = settings ? parseEmailSettings(settings) : undefined;
  return [emailDraftSave(resolved), emailDraftSend(resolved), emailFind(resolved)];
}
