import type { AnyTool } from '../contract/define-tool.js';
import { chatTools } from './chat/tools.js';
import { emailTools } from './email/tools.js';

export { type ChatSettings, chatTools } from './chat/tools.js';
export { type EmailSettings, emailTools } from './email/tools.js';

/**
 * The outward messaging tools with their default settings: the account, servers and secret names
 * come from lift.config `settings.email` and `settings.chat` (servers default to 127.0.0.1 with
 * STARTTLS, passwords to the secrets `email_password` and `chat_password`); without them the tools
 * answer NOT_CONFIGURED. A deployment with other settings builds its own from the factories.
 * Nothing connects at import time.
 */
export const tools: AnyTool[] = [...emailTools(), ...chatTools()];
