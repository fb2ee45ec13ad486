/** One chat test file's world: a private Prosody, two accounts, two rooms, and the chat tools over them. */

import { type ChatSettings, chatTools } from '../../../src/apps/chat/tools.js';
import { type ProsodyServer, startProsody } from '../../support/chat/prosody.js';
import { tempDir } from '../../support/temp.js';

/** Passwords are canaries: no envelope, log line or file Lift writes may contain them. */
export const ME = { user: 'me', jid: 'me@example.test', password: 'canary-xmpp-me-2b7e90c4' };
export const ANA = { user: 'ana', jid: 'ana@example.test', password: 'canary-xmpp-ana-5a1d3f86' };

export interface ChatWorld {
  prosody: ProsodyServer;
  /** A room that archives and lets its owner (me) retract by moderation. */
  team: string;
  /** A room that archives but offers no retraction. */
  plain: string;
  /** The folder files to post come from (the tools' root). */
  work: string;
  settings(account?: typeof ME, extra?: Partial<ChatSettings>): ChatSettings;
  tools(account?: typeof ME, extra?: Partial<ChatSettings>): ReturnType<typeof chatTools>;
  /** The secrets of a runtime logged in as `account`, as LIFT_SECRET_* variables. */
  env(account?: typeof ME): Record<string, string>;
  stop(): Promise<void>;
}

export async function startChatWorld(): Promise<ChatWorld> {
  const prosody = await startProsody();
  const work = tempDir('lift-chat-work-');
  try {
    await prosody.addUser(ME.user, ME.password);
    await prosody.addUser(ANA.user, ANA.password);
    await prosody.createRoom(`team@${prosody.rooms}`, ME.jid);
    await prosody.createRoom(`plain@${prosody.plainRooms}`, ME.jid);
  } catch (error) {
    await prosody.stop();
    work.remove();
    throw error;
  }
  const settings = (account = ME, extra: Partial<ChatSettings> = {}): ChatSettings => ({
    account: { jid: account.jid, passwordSecret: 'chat_password' },
    server: { host: '127.0.0.1', port: prosody.c2sPort, tls: 'none' },
    rooms: prosody.rooms,
    roots: [work.path],
    ...extra,
  });
  return {
    prosody,
    team: `team@${prosody.rooms}`,
    plain: `plain@${prosody.plainRooms}`,
    work: work.path,
    settings,
    tools: (account, extra) => chatTools(settings(account, extra)),
    env: (account = ME) => ({ LIFT_SECRET_CHAT_PASSWORD: account.password }),
    async stop() {
      await prosody.stop();
      work.remove();
    },
  };
}
