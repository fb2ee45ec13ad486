import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import type { PathScope } from '../../contract/paths.js';

export interface ReadInRootsOptions {
  /** The most the file may hold. */
  maxBytes: number;
  /** The input field the path came from (BAD_INPUT names it). */
  field: string;
  /** What to do instead when the file is a folder or too large. */
  hint: string;
}

/**
 * The bytes of a file a tool was given, after its path passed the root check (ctx.resolvePath):
 * a missing file is NOT_FOUND; a folder, a device, a pipe or a file over `maxBytes` is BAD_INPUT.
 * The file is opened once without waiting (a pipe cannot hold the call) and checked on the open
 * handle, so swapping it after the check changes nothing, and no more than its checked size is read.
 */
export async function readInRoots(
  ctx: ToolContext,
  path: string,
  scope: PathScope,
  options: ReadInRootsOptions,
): Promise<{ real: string; bytes: Buffer }> {
  const real = ctx.resolvePath(path, scope);
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    const why = missing ? 'does not exist' : `cannot be opened (${(error as NodeJS.ErrnoException).code})`;
    throw new LiftError('NOT_FOUND', `${scope.what} ${JSON.stringify(path)} ${why}.`, {
      hint: 'Give the path of an existing file (a tool that made it returns it in files).',
      outcome: 'not_started',
      cause: error,
    });
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > options.maxBytes) {
      throw new LiftError(
        'BAD_INPUT',
        `${scope.what} ${JSON.stringify(path)} is not a file of at most ${options.maxBytes.toLocaleString('en-US')} bytes.`,
        { hint: options.hint, outcome: 'not_started', details: { fields: [options.field] } },
      );
    }
    const bytes = Buffer.alloc(info.size);
    let read = 0;
    while (read < info.size) {
      const { bytesRead } = await handle.read(bytes, read, info.size - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return { real, bytes: bytes.subarray(0, read) };
  } finally {
    await handle.close();
  }
}
