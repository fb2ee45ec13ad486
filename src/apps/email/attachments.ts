import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import type { AttachmentFile } from './message.js';

/** Submission servers commonly refuse messages over 25 MB; base64 makes a file a third larger. */
export const MAX_ATTACHMENT_BYTES = 18 * 1024 * 1024;

function isWithin(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}

function refused(message: string, hint: string): LiftError {
  return new LiftError('BAD_INPUT', message, {
    hint,
    outcome: 'not_started',
    details: { fields: ['attachments'] },
  });
}

/**
 * The real location of a file the caller named, refused unless it lies inside one of `roots` or
 * in Lift's output folder (files other tools made), with symbolic links followed. Lift's own
 * folder (secrets, database) is refused even when a root contains it.
 */
export async function resolveInRoots(
  ctx: ToolContext,
  path: string,
  roots: readonly string[],
): Promise<string> {
  const what = `Attachment ${JSON.stringify(path)}`;
  if (path.includes('\0')) throw refused(`${what} contains a NUL character.`, 'Give a plain file path.');
  let real: string;
  try {
    real = await realpath(resolve(path));
  } catch {
    throw new LiftError('NOT_FOUND', `${what} does not exist.`, {
      hint: 'Give the path of an existing file (a tool that made it returns it in files).',
      outcome: 'not_started',
    });
  }
  // Lift's output folder is <home>/out: files other tools made may be attached, the rest of home never.
  const output = await realpath(dirname(ctx.outputDir)).catch(() => dirname(ctx.outputDir));
  const home = dirname(output);
  if (isWithin(real, home) && !isWithin(real, output)) {
    throw refused(`${what} leads into Lift's own folder.`, 'Attach a file of your own, or one a tool wrote.');
  }
  const allowed = [
    ...(await Promise.all(roots.map((root) => realpath(root).catch(() => resolve(root))))),
    output,
  ];
  if (!allowed.some((root) => isWithin(real, root))) {
    throw refused(
      `${what} is outside the folders the email tools may read: ${allowed.join(', ')}.`,
      'Give a file inside one of them (symbolic links are followed). The operator can add folders: "settings": { "email": { "roots": ["/path"] } }.',
    );
  }
  return real;
}

/** Reads each attachment once, after its path passed the root check. */
export async function readAttachments(
  ctx: ToolContext,
  paths: readonly string[],
  roots: readonly string[],
): Promise<AttachmentFile[]> {
  const files: AttachmentFile[] = [];
  let total = 0;
  for (const path of paths) {
    const real = await resolveInRoots(ctx, path, roots);
    const info = await stat(real);
    if (!info.isFile())
      throw refused(`Attachment ${JSON.stringify(path)} is not a file.`, 'Attach files only.');
    total += info.size;
    if (total > MAX_ATTACHMENT_BYTES) {
      throw refused(
        `The attachments come to ${total.toLocaleString('en-US')} bytes, over the ${MAX_ATTACHMENT_BYTES.toLocaleString('en-US')}-byte limit.`,
        'Attach fewer or smaller files, or share a link instead.',
      );
    }
    files.push({ name: basename(real), bytes: await readFile(real) });
  }
  return files;
}
