/** The capability store under its first name (other layers import it from here). */
export { CapabilityStore, type StoredCapability, verifiedCapability } from './capability-store.js';
