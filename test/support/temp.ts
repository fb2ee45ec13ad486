import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh folder removed after the test file; Lift homes and fixture data live here. Removal
 * retries for a while: a folder can hold a browser profile whose helper processes close their
 * files a moment after the browser itself has gone (ENOTEMPTY).
 */
export function tempDir(prefix = 'lift-test-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    remove: () => rmSync(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
  };
}
