export { isTempName, removeDeadTemps, tempNameFor, writeFileAtomic } from './atomic.js';
export {
  type Cell,
  COLUMN_TYPES,
  type ColumnSpec,
  type ColumnType,
  coerce,
  headerDifference,
  type Value,
} from './columns.js';
export { compileFilters, FILTER_OPS, type Filter, FilterSchema } from './filter.js';
export { acquireLock, type FileLock, type LockOwner, readLockOwner, withLock } from './lock.js';
export { type ExportFile, listExports } from './newest.js';
export {
  type ExportContract,
  type ExportQuery,
  type ExportRead,
  narrowHint,
  newestExport,
  readExport,
} from './read-export.js';
export type { ExportFormat } from './sources/index.js';
export { pollUntil, sleep } from './wait.js';
