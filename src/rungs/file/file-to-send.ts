import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import type { PathScope } from '../../contract/paths.js';

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
  const real = ctx.resolvePath(path, scope);
  const info = await stat(real).catch(() => undefined);
  if (!info) {
    throw new LiftError('NOT_FOUND', `${scope.what} ${JSON.stringify(path)} does not exist.`, {
      hint: 'Give the path of an existing file (a tool that made it returns it in files).',
      outcome: 'not_started',
    });
  }
  if (!info.isFile() || info.size > maxBytes) {
    throw new LiftError(
      'BAD_INPUT',
      `${scope.what} ${JSON.stringify(path)} is not a file of at most ${maxBytes.toLocaleString('en-US')} bytes.`,
      {
        hint: 'Send one file, smaller, or share a link instead.',
        outcome: 'not_started',
        details: { fields: [scope.field] },
      },
    );
  }
  return { path: real, name: basename(real), bytes: await readFile(real) };
}
