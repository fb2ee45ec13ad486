import { declareAppEvents, type EventsOf } from '../../contract/events.js';

/** The events hledger's tools write to the run log, with what a person watching reads. */
export const HLEDGER_EVENTS = declareAppEvents({
  'journal-appended': () => 'Appended the entry to the journal',
});

declare module '../../contract/events.js' {
  interface AppEvents extends EventsOf<typeof HLEDGER_EVENTS> {}
}
