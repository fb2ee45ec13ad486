import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isWithin } from '../../contract/paths.js';
import { isTempName } from './atomic.js';

export interface ExportFile {
  path: string;
  name: string;
  /** The export's own timestamp when it has one, else the file's modification time. */
  asOf: Date;
  asOfSource: 'export' | 'file_mtime';
  bytes: number;
}

/** Whether a symbolic link leads out of the export folder (what it points at is never read). */
function leadsOut(path: string, dir: string): boolean {
  try {
    return !isWithin(realpathSync(path), realpathSync(dir));
  } catch {
    return true;
  }
}

/**
 * Lists the finished exports in `dir` whose names match, newest first. Dot files and
 * temporary files are never candidates: they are exports still being written. Neither is a
 * symbolic link to somewhere outside the folder: what it points at is not an export.
 */
export function listExports(
  dir: string,
  pattern: RegExp,
  asOfFromName?: (name: string) => Date | undefined,
): ExportFile[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: ExportFile[] = [];
  for (const entry of entries) {
    const { name } = entry;
    if (name.startsWith('.') || isTempName(name) || !pattern.test(name)) continue;
    const path = join(dir, name);
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(path);
    } catch {
      continue; // Rotated away between readdir and stat.
    }
    if (!stat.isFile() || (entry.isSymbolicLink() && leadsOut(path, dir))) continue;
    const own = asOfFromName?.(name);
    const valid = own !== undefined && !Number.isNaN(own.getTime());
    files.push({
      path,
      name,
      asOf: valid ? own : stat.mtime,
      asOfSource: valid ? 'export' : 'file_mtime',
      bytes: stat.size,
    });
  }
  return files.sort((a, b) => b.asOf.getTime() - a.asOf.getTime() || b.name.localeCompare(a.name));
}
