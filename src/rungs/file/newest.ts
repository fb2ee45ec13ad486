import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isTempName } from './atomic.js';

export interface ExportFile {
  path: string;
  name: string;
  /** The export's own timestamp when it has one, else the file's modification time. */
  asOf: Date;
  asOfSource: 'export' | 'file_mtime';
  bytes: number;
}

/**
 * Lists the finished exports in `dir` whose names match, newest first. Dot files and
 * temporary files are never candidates: they are exports still being written.
 */
export function listExports(
  dir: string,
  pattern: RegExp,
  asOfFromName?: (name: string) => Date | undefined,
): ExportFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: ExportFile[] = [];
  for (const name of names) {
    if (name.startsWith('.') || isTempName(name) || !pattern.test(name)) continue;
    const path = join(dir, name);
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(path);
    } catch {
      continue; // Rotated away between readdir and stat.
    }
    if (!stat.isFile()) continue;
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
