// Registrations are records every process sharing a store must see alike: they live in the store.
export type { Registration } from '../store/records.js';
export { FAILURES_BEFORE_DISABLE, Registrations } from '../store/registrations.js';
