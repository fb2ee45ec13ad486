import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { ToolContext } from '../contract/context.js';
import { LiftError } from '../contract/errors.js';

/** Which tools ask, for messages: `email` attachments, the `chat` file. */
export interface RootScope {
  family: string;
  /** What the path is: 'Attachment', 'The file'. */
  what: string;
  /** The input field that holds it. */
  field: string;
}

function isWithin(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}

/**
 * The real location of a file a tool was given, refused unless it lies inside one of `roots` or
 * in Lift's output folder (files other tools made), with symbolic links followed. The rest of
 * Lift's home (secrets, database) is refused even when a root contains it. Outward tools read
 * files to send them to other people, so a path must never reach further than the operator allows.
 */
export async function resolveInRoots(
  ctx: ToolContext,
  path: string,
  roots: readonly string[],
  scope: RootScope,
): Promise<string> {
  const what = `${scope.what} ${JSON.stringify(path)}`;
  const refused = (message: string, hint: string) =>
    new LiftError('BAD_INPUT', message, { hint, outcome: 'not_started', details: { fields: [scope.field] } });
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
  // Lift's output folder is <home>/out: files other tools made may go out, the rest of home never.
  const output = await realpath(dirname(ctx.outputDir)).catch(() => dirname(ctx.outputDir));
  const home = dirname(output);
  if (isWithin(real, home) && !isWithin(real, output)) {
    throw refused(`${what} leads into Lift's own folder.`, 'Give a file of your own, or one a tool wrote.');
  }
  const allowed = [
    ...(await Promise.all(roots.map((root) => realpath(root).catch(() => resolve(root))))),
    output,
  ];
  if (!allowed.some((root) => isWithin(real, root))) {
    throw refused(
      `${what} is outside the folders the ${scope.family} tools may read: ${allowed.join(', ')}.`,
      `Give a file inside one of them (symbolic links are followed). The operator can add folders: "settings": { "${scope.family}": { "roots": ["/path"] } }.`,
    );
  }
  return real;
}
