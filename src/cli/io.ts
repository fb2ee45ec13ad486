/** What a command may touch of the outside world; tests pass their own. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Standard input when it is a person at a terminal; undefined when not interactive. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

export type Command = (args: string[], io: CliIo) => Promise<number>;

export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
  };
}

export function printJson(io: CliIo, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}
