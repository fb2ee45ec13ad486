import { z } from 'zod';
import { LiftError } from '../../contract/errors.js';

/** What chat_undo needs to take a post back: where it went, the server's id and our own. */
export interface UndoHandle {
  kind: 'room' | 'person';
  to: string;
  messageId: string;
  clientId: string;
}

// Bare addresses hold no ':', and both ids are made of [A-Za-z0-9._:-] only, so ':' separates
// the first three parts and the client id (a request id) keeps its own colons.
const HANDLE =
  /^chat-undo:(room|person):([^\s:/]+@[^\s:/]+):([A-Za-z0-9._-]{1,200}):([A-Za-z0-9][A-Za-z0-9._:-]{0,199})$/;

export const UndoHandleSchema = z.string().max(600).regex(HANDLE, 'an undo handle as chat_post returned it');

export function formatHandle(handle: UndoHandle): string {
  return `chat-undo:${handle.kind}:${handle.to}:${handle.messageId}:${handle.clientId}`;
}

export function parseHandle(text: string): UndoHandle {
  const match = HANDLE.exec(text);
  if (!match) throw new LiftError('BAD_INPUT', 'Not an undo handle.', { outcome: 'not_started' });
  const [, kind, to, messageId, clientId] = match as unknown as [
    string,
    'room' | 'person',
    string,
    string,
    string,
  ];
  return { kind, to, messageId, clientId };
}
