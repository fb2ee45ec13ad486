import { textOf } from '../../contract/event-fields.js';
import { declareAppEvents, type EventsOf } from '../../contract/events.js';

/** The events the service tools write to the run log, with what a person watching reads. */
export const SERVICE_EVENTS = declareAppEvents({
  'service-status-read': (event) => `The service is ${textOf(event, 'state') ?? 'read'}`,
});

declare module '../../contract/events.js' {
  interface AppEvents extends EventsOf<typeof SERVICE_EVENTS> {}
}
