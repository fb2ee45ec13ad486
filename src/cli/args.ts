import { type ParseArgsConfig, parseArgs } from 'node:util';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** node:util parseArgs with errors that read as usage mistakes. */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
  allowPositionals = true,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: boolean; strict: true }>> {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function parseJsonArgument(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${what} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
