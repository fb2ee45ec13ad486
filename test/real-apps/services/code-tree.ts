import { existsSync, rmSync, writeFileSync } from 'node:fs';
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
}

/**
 * Replaces one file of a linked tree. The old name is unlinked first: writing through a hard
 * link would change Debian's own file.
 */
export function replaceFile(path: string, content: string): void {
  rmSync(path, { force: true });
  writeFileSync(path, content);
}
