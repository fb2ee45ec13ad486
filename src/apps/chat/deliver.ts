import { LiftError } from '../../contract/errors.js';
import { type ArchivedMessage, findArchived, queryArchive } from './archive.js';
import { type ChatSession, type Element, errorOf, xml } from './session.js';
import type { Target } from './target.js';

const SID = 'urn:xmpp:sid:0';
export const MAM_EXTENDED = 'urn:xmpp:mam:2#extended';

/** A message to the target, with our id as its `id` and origin-id, asking servers to archive it. */
export function messageTo(target: Target, clientId: string, children: Element[]): Element {
  return xml(
    'message',
    { to: target.jid, type: target.kind === 'room' ? 'groupchat' : 'chat', id: clientId },
    ...children,
    xml('origin-id', { xmlns: SID, id: clientId }),
    xml('store', { xmlns: 'urn:xmpp:hints' }),
  );
}

/**
 * Sends to a room and waits for the room to echo it back: the echo carries the stanza-id the room
 * gave the message in its archive. The caller has joined the room as `nick`.
 */
async function sendToRoom(
  session: ChatSession,
  target: Target,
  nick: string,
  message: Element,
): Promise<string> {
  const clientId = String(message.attrs.id);
  return session.exchange(
    () => session.send(message),
    (stanza) => {
      if (!stanza.is('message') || stanza.attrs.id !== clientId) return undefined;
      const from = String(stanza.attrs.from ?? '');
      if (from !== `${target.jid}/${nick}` && from !== target.jid) return undefined;
      if (stanza.attrs.type === 'error') throw errorOf(stanza, `Posting to ${target.jid}`);
      const stamped = stanza.getChildren('stanza-id', SID).find((child) => child.attrs.by === target.jid);
      if (!stamped?.attrs.id) {
        throw new LiftError(
          'SURFACE_CHANGED',
          `${target.jid} echoed the message without a stanza-id: it keeps no archive.`,
          {
            hint: 'The room must archive messages (XEP-0313) for a post to be checked; ask its owner to enable it.',
            outcome: 'unknown',
          },
        );
      }
      return String(stamped.attrs.id);
    },
    `Posting to ${target.jid}`,
  );
}

/** Sends to one person; the server's id is the one the account's own archive gives the message. */
async function sendToPerson(session: ChatSession, target: Target, message: Element): Promise<string> {
  const clientId = String(message.attrs.id);
  await session.send(message);
  for (let attempt = 0; attempt < 20; attempt++) {
    const found = (await queryArchive(session, { archive: undefined, max: 20, with: target.jid })).find(
      (archived) => archived.originId === clientId || archived.clientId === clientId,
    );
    if (found) return found.id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new LiftError('CHECK_FAILED', `The message to ${target.jid} is not in the account's archive.`, {
    outcome: 'unknown',
  });
}

/** Sends a message and returns the id the server's archive gave it. */
export function deliver(
  session: ChatSession,
  target: Target,
  nick: string,
  message: Element,
): Promise<string> {
  return target.kind === 'room'
    ? sendToRoom(session, target, nick, message)
    : sendToPerson(session, target, message);
}

/** The archive a target's messages are in: the room's own, or the account's (filtered by the person). */
export async function archivedById(
  session: ChatSession,
  target: Target,
  id: string,
): Promise<ArchivedMessage | undefined> {
  if (target.kind === 'room') return findArchived(session, target.jid, id, target.features.has(MAM_EXTENDED));
  const messages = await queryArchive(session, { archive: undefined, max: 200, with: target.jid });
  return messages.find((message) => message.id === id);
}

/** The last `max` messages of a target's archive, oldest first. */
export function lastMessages(session: ChatSession, target: Target, max: number): Promise<ArchivedMessage[]> {
  return target.kind === 'room'
    ? queryArchive(session, { archive: target.jid, max })
    : queryArchive(session, { archive: undefined, max, with: target.jid });
}
