import { basename } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import type { PathScope } from '../../contract/paths.js';
import { readInRoots } from './read-in-roots.js';

export interface FileToSend {
  /** The real path, symbolic links followed, inside the scope's roots. */
  path: string;
  name: string;
  bytes: Buffer;
}

/**
 * A file an outward tool sends to other people, read once after its path passed the root check
 * (ctx.resolvePath: the operator's roots, the tool's, or the working folder, and Lift's output
 * folder; never Lift's home). A missing file is NOT_FOUND; a folder or a file over `maxBytes`
 * is BAD_INPUT.
 */
export async function readFileToSend(
  ctx: ToolContext,
  path: string,
  scope: PathScope & { field: string },
  maxBytes: number,
): Promise<FileToSend> {
  const { real, bytes } = await readInRoots(ctx, path, scope, {
    maxBytes,
    field: scope.field,
    hint: 'Send one file, smaller, or share a link instead.',
  });
  return { path: real, name: basename(real), bytes };
}
