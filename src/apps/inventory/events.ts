import { textOf } from '../../contract/event-fields.js';
import { declareAppEvents, type EventsOf } from '../../contract/events.js';

/** The events the inventory tools write to the run log, with what a person watching reads. */
export const INVENTORY_EVENTS = declareAppEvents({
  'inventory-item-created': (event) => `Created inventory item ${textOf(event, 'id') ?? ''}`.trim(),
});

declare module '../../contract/events.js' {
  interface AppEvents extends EventsOf<typeof INVENTORY_EVENTS> {}
}
