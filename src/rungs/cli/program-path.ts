import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, resolve } from 'node:path';

export type ProgramPath = { ok: true; path: string } | { ok: false; code: 'ENOENT' | 'EACCES' };

function executable(path: string): 'yes' | 'no' | 'absent' {
  try {
    if (!statSync(path).isFile()) return 'absent';
  } catch {
    return 'absent';
  }
  try {
    accessSync(path, constants.X_OK);
    return 'yes';
  } catch {
    return 'no';
  }
}

/**
 * The file a program name runs, found as execvp finds it: a name with a slash is taken from
 * the working folder, any other is looked for along PATH (an empty entry is the working
 * folder). The wrapper resolves it itself when a helper starts the program, so that a missing
 * program is still the spawn error it always was, not the helper's exit status 127.
 */
export function resolveProgram(program: string, searchPath: string, cwd: string): ProgramPath {
  if (program.includes('/')) {
    const path = isAbsolute(program) ? program : resolve(cwd, program);
    const verdict = executable(path);
    return verdict === 'yes'
      ? { ok: true, path }
      : { ok: false, code: verdict === 'no' ? 'EACCES' : 'ENOENT' };
  }
  let denied = false;
  for (const folder of searchPath.split(delimiter)) {
    const path = resolve(cwd, folder || '.', program);
    const verdict = executable(path);
    if (verdict === 'yes') return { ok: true, path };
    denied ||= verdict === 'no';
  }
  return { ok: false, code: denied ? 'EACCES' : 'ENOENT' };
}
