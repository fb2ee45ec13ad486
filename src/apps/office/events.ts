import { countOf, inSeconds, plural, textOf } from '../../contract/event-fields.js';
import { declareAppEvents, type EventsOf } from '../../contract/events.js';

const JOBS: Readonly<Record<string, string>> = { convert: 'converts the document' };

/** The events the office tools write to the run log, with what a person watching reads. */
export const OFFICE_EVENTS = declareAppEvents({
  'deck-written': (event) => `Wrote a deck of ${plural(countOf(event, 'slides') ?? 0, 'slide')}`,
  'office-job-start': (event) => {
    const op = textOf(event, 'op') ?? 'document';
    return `LibreOffice ${JOBS[op] ?? `renders the ${op}`}`;
  },
  'office-job-end': (event) =>
    `LibreOffice finished the ${textOf(event, 'op') ?? 'job'}${inSeconds(countOf(event, 'ms'))}`,
});

declare module '../../contract/events.js' {
  interface AppEvents extends EventsOf<typeof OFFICE_EVENTS> {}
}
