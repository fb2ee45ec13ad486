import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LiftConfig } from '../config/load.js';
import { UsageError } from './args.js';
import type { CliIo } from './io.js';
import type { OptionSpec } from './spec.js';

/** `--root DIR`, on every command that runs path tools (lift serve, call, run, worker). */
export const ROOT_OPTION = {
  type: 'string',
  multiple: true,
  default: [],
  value: 'DIR',
  description:
    "a folder path tools may reach (repeatable), when lift.config sets no roots; an MCP client's roots come first for its calls",
} as const satisfies OptionSpec;

function folder(path: string): string {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info?.isDirectory()) throw new UsageError(`--root ${path}: no such folder.`);
  return path;
}

/**
 * The roots the operator gave: lift.config `roots` (relative to the config), else `--root`
 * (relative to the working folder); undefined when neither, and the runtime falls back to the
 * working folder when it is a project's. A `--root` that lift.config overrides is said on stderr.
 */
export function operatorRoots(
  config: Pick<LiftConfig, 'roots' | 'root' | 'file'>,
  flags: readonly string[] | undefined,
  io: CliIo,
): string[] | undefined {
  const fromFlags = (flags ?? []).map((root) => folder(resolve(io.cwd, root)));
  const fromConfig = (config.roots ?? []).map((root) => resolve(config.root, root));
  if (fromConfig.length > 0) {
    if (fromFlags.length > 0)
      io.err(`--root is not used: ${config.file} sets roots (${fromConfig.join(', ')}), which come first.`);
    return fromConfig;
  }
  return fromFlags.length > 0 ? fromFlags : undefined;
}
