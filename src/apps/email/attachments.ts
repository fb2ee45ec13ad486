import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { resolveInRoots } from '../file-roots.js';
import type { AttachmentFile } from './message.js';

/** Submission servers commonly refuse messages over 25 MB; base64 makes a file a third larger. */
export const MAX_ATTACHMENT_BYTES = 18 * 1024 * 1024;

function refused(message: string, hint: string): LiftError {
  return new LiftError('BAD_INPUT', message, {
    hint,
    outcome: 'not_started',
    details: { fields: ['attachments'] },
  });
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
    const real = await resolveInRoots(ctx, path, roots, {
      family: 'email',
      what: 'Attachment',
      field: 'attachments',
    });
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
