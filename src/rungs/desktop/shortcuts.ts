import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { LiftError } from '../../contract/errors.js';

const require = createRequire(import.meta.url);

/** yaml, required when a shortcuts file is first read (the desktop tools are declared without it). */
function parseYaml(text: string): unknown {
  return (require('yaml') as typeof import('yaml')).parse(text);
}

/** A key combination such as "ctrl+shift+g", "enter" or "f5". */
export const KEY_COMBO =
  /^(?:(?:ctrl|control|shift|alt|super|meta|win)\+){0,3}(?:[a-z0-9]|[-=+*/.,;'`[\]\\]|enter|return|escape|esc|tab|backspace|delete|del|space|up|down|left|right|home|end|pageup|pagedown|insert|plus|minus|f[1-9]|f1[0-2])$/i;

export interface Shortcut {
  /** What it does, in the program's words ("copy character"). */
  name: string;
  /** The keys, modifiers first (["ctrl", "c"]). */
  keys: string[];
}

export function parseKeys(combo: string): string[] {
  const trimmed = combo.trim();
  // "ctrl++" and "+" name the plus key itself.
  const keys = trimmed.endsWith('++') ? [...trimmed.slice(0, -2).split('+'), 'plus'] : trimmed.split('+');
  return trimmed === '+' ? ['plus'] : keys.map((key) => key.toLowerCase());
}

const ShortcutsFileSchema = z.record(
  z
    .string()
    .min(1)
    .max(60)
    .regex(/^[a-z][a-z0-9 -]*$/, 'lower-case words'),
  z.string().regex(KEY_COMBO, 'a key combination such as ctrl+c, enter or f5'),
);

/** A YAML or JSON file an operator wrote; one that cannot be read or parsed is NOT_CONFIGURED. */
export function readSettingsFile(file: string, what: string): unknown {
  try {
    return parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new LiftError('NOT_CONFIGURED', `The ${what} ${file} cannot be read: ${(error as Error).message}`);
  }
}

/**
 * A program's shortcuts file (YAML or JSON: action -> keys). Offered to the model as exact
 * and instant actions; a file that does not parse is a configuration error, not a guess.
 */
export function loadShortcuts(file: string): Shortcut[] {
  const raw = readSettingsFile(file, 'shortcuts file');
  const parsed = ShortcutsFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new LiftError(
      'NOT_CONFIGURED',
      `The shortcuts file ${file} is not valid: ${z.prettifyError(parsed.error)}`,
      {
        hint: 'A shortcuts file maps an action to keys, one a line: "copy character: ctrl+c".',
      },
    );
  }
  return Object.entries(parsed.data).map(([name, combo]) => ({ name, keys: parseKeys(combo) }));
}
