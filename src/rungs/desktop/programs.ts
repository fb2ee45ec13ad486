import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { LiftError } from '../../contract/errors.js';
import { loadShortcuts, readSettingsFile, type Shortcut } from './shortcuts.js';

/** A desktop program Lift may start: its command, settings and shortcuts, as data. */
export const ProgramSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9-]{0,40}$/),
  command: z.array(z.string().min(1).max(500)).min(1).max(20),
  /** The title of its main window. */
  title: z.string().min(1).max(200).optional(),
  /** GSettings written to the session's private keyfile before start: schema path -> key -> GVariant text. */
  gsettings: z.record(z.string().max(200), z.record(z.string().max(100), z.string().max(500))).default({}),
  /** The shortcuts file, relative to the program file. */
  shortcuts: z.string().max(500).optional(),
  /** Extra environment for this program only. */
  env: z.record(z.string().regex(/^[A-Z_][A-Z0-9_]*$/), z.string().max(1000)).default({}),
});
export type ProgramSpec = z.infer<typeof ProgramSchema>;

export interface Program extends ProgramSpec {
  shortcutList: Shortcut[];
}

/** The program folders shipped with Lift; from dist/ they are found in the source tree. */
function programsFolder(): string {
  const candidates = [
    fileURLToPath(new URL('./programs', import.meta.url)),
    fileURLToPath(new URL('../../../src/rungs/desktop/programs', import.meta.url)),
  ];
  return candidates.find((candidate) => existsSync(candidate)) ?? candidates[0]!;
}

/** Reads a program file (YAML or JSON); its shortcuts file sits next to it. */
export function loadProgramFile(file: string): Program {
  return programFrom(readSettingsFile(file, 'program file'), dirname(file), file);
}

export function programFrom(raw: unknown, folder: string, origin: string): Program {
  const parsed = ProgramSchema.safeParse(raw);
  if (!parsed.success) {
    throw new LiftError(
      'NOT_CONFIGURED',
      `The program ${origin} is not valid: ${z.prettifyError(parsed.error)}`,
    );
  }
  const spec = parsed.data;
  const shortcutsFile =
    spec.shortcuts && (isAbsolute(spec.shortcuts) ? spec.shortcuts : join(folder, spec.shortcuts));
  return { ...spec, shortcutList: shortcutsFile ? loadShortcuts(shortcutsFile) : [] };
}

/** The programs Lift ships (GNOME Calculator, GNOME Character Map). */
export function builtinPrograms(): Program[] {
  const folder = programsFolder();
  return ['gnome-calculator', 'gucharmap'].map((name) => loadProgramFile(join(folder, name, 'program.yaml')));
}

/** GSettings as the keyfile backend reads them (GSETTINGS_BACKEND=keyfile). */
export function gsettingsKeyfile(programs: readonly Program[]): string {
  const groups = new Map<string, string[]>();
  for (const program of programs) {
    for (const [path, keys] of Object.entries(program.gsettings)) {
      const lines = groups.get(path) ?? [];
      for (const [key, value] of Object.entries(keys)) lines.push(`${key}=${value}`);
      groups.set(path, lines);
    }
  }
  return [...groups].map(([path, lines]) => `[${path}]\n${lines.join('\n')}\n`).join('\n');
}
