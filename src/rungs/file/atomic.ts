import { randomBytes } from 'node:crypto';
import { readdirSync, unlinkSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../../contract/paths.js';
import { processIsAlive } from '../../store/processes.js';

export type Chunks = string | Uint8Array | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

/**
 * Temporary files start with a dot and end with `.tmp`, the two marks watched-folder
 * programs skip, and carry the writer's pid so a later writer can clear a dead one's leftovers.
 */
export function tempNameFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

const TEMP = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.tmp$/;

export function isTempName(name: string): boolean {
  return TEMP.test(name);
}

async function* chunksOf(content: Chunks): AsyncIterable<string | Uint8Array> {
  if (typeof content === 'string' || content instanceof Uint8Array) {
    yield content;
    return;
  }
  yield* content;
}

async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export interface AtomicWriteOptions {
  /** The new file's mode (default owner-only; give the old file's mode when replacing one). */
  mode?: number;
  /** Called after the temporary file is complete and synced, just before it becomes visible. */
  beforeRename?: () => void;
}

/**
 * Writes `target` so that readers see either the old file or the whole new one, never a part:
 * a temporary name in the same folder, fsync of the file, rename, fsync of the folder. A writer
 * killed mid-write leaves only a dot-named temporary file that watchers ignore.
 */
export async function writeFileAtomic(
  target: string,
  content: Chunks,
  options: AtomicWriteOptions = {},
): Promise<number> {
  const temp = tempNameFor(target);
  const handle = await open(temp, 'wx', options.mode ?? PRIVATE_FILE_MODE);
  let bytes = 0;
  try {
    for await (const chunk of chunksOf(content)) {
      const { bytesWritten } =
        typeof chunk === 'string' ? await handle.write(chunk) : await handle.write(chunk);
      bytes += bytesWritten;
    }
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  options.beforeRename?.();
  try {
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await fsyncDirectory(dirname(target));
  return bytes;
}

/** Removes temporary files left in `dir` by writers that died (kill -9, power loss). Returns their names. */
export function removeDeadTemps(dir: string): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const match = TEMP.exec(name);
    if (!match || processIsAlive(Number(match[2]))) continue;
    try {
      unlinkSync(join(dir, name));
      removed.push(name);
    } catch {
      // Another writer cleared it first.
    }
  }
  return removed;
}
