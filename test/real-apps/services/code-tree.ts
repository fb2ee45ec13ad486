import { existsSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { run } from './processes.js';

/**
 * A private copy of an application's Debian code tree, hard-linked (instant, no space), for
 * applications that look for their configuration beside their code. Symbolic links would not
 * do: PHP resolves them in __DIR__, and the application would find Debian's /etc config again.
 */
export async function linkCodeTree(source: string, target: string): Promise<void> {
  if (!existsSync(source)) {
    throw new Error(`${source} is missing: install the bed's Debian packages with scripts/setup.sh.`);
  }
  try {
    await run('cp', ['-al', source, target]);
  } catch {
    rmSync(target, { recursive: true, force: true });
    await run('cp', ['-a', source, target]);
  }
  await repointEscapingLinks(source, target);
}

/**
 * Debian links into shared folders with relative links (js/vendor/jquery.min.js ->
 * ../../../../javascript/jquery/jquery.min.js); from the copy they would point nowhere, so
 * each link that leaves the tree is made absolute.
 */
async function repointEscapingLinks(source: string, target: string): Promise<void> {
  const links = (await run('find', [target, '-type', 'l', '-print0'])).split('\0').filter(Boolean);
  for (const link of links) {
    const pointsTo = readlinkSync(link);
    if (isAbsolute(pointsTo)) continue;
    const original = resolve(dirname(resolve(source, relative(target, link))), pointsTo);
    if (!relative(source, original).startsWith('..')) continue;
    rmSync(link);
    symlinkSync(original, link);
  }
}

/**
 * Replaces one file of a linked tree. The old name is unlinked first: writing through a hard
 * link would change Debian's own file.
 */
export function replaceFile(path: string, content: string): void {
  rmSync(path, { force: true });
  writeFileSync(path, content);
}
