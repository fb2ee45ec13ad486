import type { ChatSession, Element } from './session.js';
import { newId, xml } from './session.js';

const MAM = 'urn:xmpp:mam:2';
const SID = 'urn:xmpp:sid:0';
export const RETRACT = 'urn:xmpp:message-retract:0';
export const MODERATE = 'urn:xmpp:message-moderate:0';
export const FASTEN = 'urn:xmpp:fasten:0';
export const CORRECT = 'urn:xmpp:message-correct:0';
export const OOB = 'jabber:x:oob';

/** One message as the server's archive (XEP-0313) holds it. */
export interface ArchivedMessage {
  /** The id the archive gave it: for a room, the stanza-id it stamped on the message. */
  id: string;
  from: string;
  stamp: string;
  body: string | undefined;
  /** The sender's own id (the `id` attribute) and origin-id (XEP-0359). */
  clientId: string | undefined;
  originId: string | undefined;
  /** The file link of an upload (XEP-0066 out-of-band data). */
  url: string | undefined;
  /** A tombstone: the message was retracted (by its sender or a moderator). */
  retracted: boolean;
  /** A correction (XEP-0308) of the message with this client id. */
  replaces: string | undefined;
  /** A retraction or moderation notice about the message with this id. */
  retracts: string | undefined;
}

function readArchived(result: Element): ArchivedMessage | undefined {
  const forwarded = result.getChild('forwarded', 'urn:xmpp:forward:0');
  const message = forwarded?.getChild('message');
  if (!forwarded || !message) return undefined;
  const applyTo = message.getChild('apply-to', FASTEN);
  const tombstone =
    message.getChild('retracted', RETRACT) ??
    message.getChild('moderated', MODERATE)?.getChild('retracted', RETRACT);
  return {
    id: String(result.attrs.id ?? ''),
    from: String(message.attrs.from ?? ''),
    stamp: String(forwarded.getChild('delay', 'urn:xmpp:delay')?.attrs.stamp ?? ''),
    body: message.getChildText('body') ?? undefined,
    clientId: message.attrs.id === undefined ? undefined : String(message.attrs.id),
    originId: message.getChild('origin-id', SID)?.attrs.id,
    url: message.getChild('x', OOB)?.getChildText('url') ?? undefined,
    retracted: tombstone !== undefined,
    replaces: message.getChild('replace', CORRECT)?.attrs.id,
    retracts:
      applyTo && (applyTo.getChild('retract', RETRACT) || applyTo.getChild('moderated', MODERATE))
        ? String(applyTo.attrs.id ?? '')
        : undefined,
  };
}

export interface ArchiveQuery {
  /** The room's archive, or (undefined) the account's own. */
  archive: string | undefined;
  /** The last this many messages. */
  max: number;
  /** Only the conversation with this address (the account's own archive). */
  with?: string;
  /** Only these archive ids (servers that support the `ids` filter). */
  ids?: string[];
}

function field(name: string, values: string[], type?: string): Element {
  return xml(
    'field',
    { var: name, ...(type ? { type } : {}) },
    ...values.map((value) => xml('value', {}, value)),
  );
}

/** The last `max` archived messages, oldest first, read with one MAM query. */
export async function queryArchive(session: ChatSession, query: ArchiveQuery): Promise<ArchivedMessage[]> {
  const queryId = newId();
  const iqId = newId();
  const form = xml(
    'x',
    { xmlns: 'jabber:x:data', type: 'submit' },
    field('FORM_TYPE', [MAM], 'hidden'),
    ...(query.with ? [field('with', [query.with])] : []),
    ...(query.ids ? [field('ids', query.ids)] : []),
  );
  const request = xml(
    'iq',
    { type: 'set', id: iqId, ...(query.archive ? { to: query.archive } : {}) },
    xml(
      'query',
      { xmlns: MAM, queryid: queryId },
      form,
      xml(
        'set',
        { xmlns: 'http://jabber.org/protocol/rsm' },
        xml('max', {}, String(query.max)),
        xml('before'),
      ),
    ),
  );
  const found: ArchivedMessage[] = [];
  return session.exchange(
    () => session.send(request),
    (stanza) => {
      const result = stanza.is('message') ? stanza.getChild('result', MAM) : undefined;
      if (result?.attrs.queryid === queryId) {
        const message = readArchived(result);
        if (message) found.push(message);
        return undefined;
      }
      if (!stanza.is('iq') || stanza.attrs.id !== iqId) return undefined;
      if (stanza.attrs.type === 'error') throw errorOfIq(stanza);
      return found;
    },
    'The archive query',
  );
}

function errorOfIq(stanza: Element): Error {
  const error = stanza.getChild('error');
  const condition = error?.children.find(
    (child): child is Element => typeof child !== 'string' && child.name !== 'text',
  );
  return Object.assign(new Error(`archive query refused: ${condition?.name ?? 'error'}`), {
    name: 'StanzaError',
    condition: condition?.name ?? 'undefined-condition',
  });
}

/** One message by its archive id: the `ids` filter where the server has it, else the last 200. */
export async function findArchived(
  session: ChatSession,
  archive: string | undefined,
  id: string,
  extended: boolean,
): Promise<ArchivedMessage | undefined> {
  const messages = extended
    ? await queryArchive(session, { archive, max: 10, ids: [id] })
    : await queryArchive(session, { archive, max: 200 });
  return messages.find((message) => message.id === id);
}
