// Canonical JSON moved to the store, which hashes stored inputs in its migrations.
export { canonicalJson, hashValue, sha256 } from '../store/canonical.js';
