import type { ToolContext } from '../../contract/context.js';
import type { PathScope } from '../../contract/paths.js';
import type { AttachmentFile } from './message.js';

/** Submission servers commonly refuse messages over 25 MB; base64 makes a file a third larger. */
export const MAX_ATTACHMENT_BYTES = 18 * 1024 * 1024;

/** Where attachment `index` may come from: settings.email.roots, else the factory's roots, else the working folder. */
export function attachmentScope(index: number, roots: readonly string[] | undefined): PathScope {
  return { family: 'email', what: `Attachment ${index + 1}`, roots };
}

/** Reads each attachment once, after its path passed the root check. */
export async function readAttachments(
  ctx: ToolContext,
  paths: readonly string[],
  roots: readonly string[] | undefined,
): Promise<AttachmentFile[]> {
  const { readFileToSend } = await import('../../rungs/file/file-to-send.js');
  const files: AttachmentFile[] = [];
  let total = 0;
  for (const [index, path] of paths.entries()) {
    const scope = { ...attachmentScope(index, roots), field: 'attachments' };
    // Each file may use what the ones before it left of the limit.
    const file = await readFileToSend(ctx, path, scope, MAX_ATTACHMENT_BYTES - total);
    total += file.bytes.length;
    files.push({ name: file.name, bytes: file.bytes });
  }
  return files;
}
