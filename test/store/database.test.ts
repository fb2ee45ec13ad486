import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database.js';
import { tempDir } from '../support/temp.js';

describe('openDatabase', () => {
  it("keeps SQLite's 2 MB page cache, not better-sqlite3's 16 MB that a long server filled with pages written once", () => {
    const dir = tempDir('lift-db-cache-');
    try {
      const db = openDatabase(dir.path);
      try {
        expect(db.pragma('cache_size', { simple: true })).toBe(-2000);
      } finally {
        db.close();
      }
    } finally {
      dir.remove();
    }
  });
});
