import { countOf } from '../../contract/event-fields.js';
import { declareAppEvents, type EventsOf } from '../../contract/events.js';

/** The events the plan tools write to the run log, with what a person watching reads. */
export const PLAN_EVENTS = declareAppEvents({
  'draft-written': (event) => `Drew revision ${countOf(event, 'revision') ?? 'one'} of the plan`,
});

declare module '../../contract/events.js' {
  interface AppEvents extends EventsOf<typeof PLAN_EVENTS> {}
}
