import { textOf } from '../../contract/event-fields.js';
import { declareAppEvents, type EventsOf } from '../../contract/events.js';

/** The events the email tools write to the run log, with what a person watching reads. */
export const EMAIL_EVENTS = declareAppEvents({
  'email-draft-saved': (event) => `Saved the draft in ${textOf(event, 'folder') ?? 'the drafts folder'}`,
});

declare module '../../contract/events.js' {
  interface AppEvents extends EventsOf<typeof EMAIL_EVENTS> {}
}
