import { LiftError } from '../../contract/errors.js';
import { type ChatSession, type Element, errorOf, xml } from './session.js';
import { type ResolvedChatSettings, roomServiceOf } from './settings.js';

const DISCO_INFO = 'http://jabber.org/protocol/disco#info';
const MUC = 'http://jabber.org/protocol/muc';

/** Where a message goes: a group room, or one person. */
export interface Target {
  jid: string;
  kind: 'room' | 'person';
  /** The room's name, when it has one. */
  name: string | undefined;
  features: Set<string>;
}

/** `#team` is team@ the group-chat service; anything else is an address. */
export function addressOf(settings: ResolvedChatSettings, to: string): string {
  return to.startsWith('#') ? `${to.slice(1)}@${roomServiceOf(settings)}` : to;
}

export async function discoInfo(
  session: ChatSession,
  jid: string,
): Promise<{ identities: Element[]; features: Set<string> }> {
  const reply = await session.iq('get', jid, xml('query', { xmlns: DISCO_INFO }), `Looking up ${jid}`);
  const query = reply.getChild('query', DISCO_INFO);
  return {
    identities: query?.getChildren('identity') ?? [],
    features: new Set((query?.getChildren('feature') ?? []).map((feature) => String(feature.attrs.var))),
  };
}

/** Asks the server what `to` is: a room (a conference identity) must exist; anything else is a person. */
export async function resolveTarget(
  session: ChatSession,
  settings: ResolvedChatSettings,
  to: string,
): Promise<Target> {
  const jid = addressOf(settings, to);
  const onRoomService = jid.endsWith(`@${roomServiceOf(settings)}`);
  try {
    const info = await discoInfo(session, jid);
    const room = info.identities.find((identity) => identity.attrs.category === 'conference');
    if (room) return { jid, kind: 'room', name: room.attrs.name, features: info.features };
    return { jid, kind: 'person', name: undefined, features: info.features };
  } catch (error) {
    if (error instanceof LiftError && error.code === 'NOT_FOUND' && onRoomService) {
      throw new LiftError('NOT_FOUND', `There is no room ${jid}.`, {
        hint: 'Post to a room that exists (a person creates it); chat_history of a known room shows it is there.',
        outcome: 'not_started',
      });
    }
    if (onRoomService) throw error;
    // A person's server may not answer for them (no subscription): still a person.
    return { jid, kind: 'person', name: undefined, features: new Set() };
  }
}

/**
 * Enters a room under `nick` without history and waits for the room to confirm it (status 110).
 * Returns the role the room gave (owners and admins are moderators).
 */
export async function joinRoom(session: ChatSession, room: string, nick: string): Promise<string> {
  const occupant = `${room}/${nick}`;
  return session.exchange(
    () =>
      session.send(
        xml('presence', { to: occupant }, xml('x', { xmlns: MUC }, xml('history', { maxstanzas: '0' }))),
      ),
    (stanza) => {
      if (!stanza.is('presence') || stanza.attrs.from !== occupant) return undefined;
      if (stanza.attrs.type === 'error') throw errorOf(stanza, `Entering ${room}`);
      const user = stanza.getChild('x', `${MUC}#user`);
      const self = user?.getChildren('status').some((status) => status.attrs.code === '110');
      return self ? String(user?.getChild('item')?.attrs.role ?? 'none') : undefined;
    },
    `Entering ${room}`,
  );
}
