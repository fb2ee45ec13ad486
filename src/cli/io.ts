/** What a command may touch of the outside world; tests pass their own. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Standard input when it is a person at a terminal; undefined when not interactive. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Whether standard error is a terminal (a person watching): progress lines go there. */
  errIsTerminal?: boolean;
}

export type Command = (args: string[], io: CliIo) => Promise<number>;

/** `lift runs | head -3`: a reader that went away ends lift quietly, as it does for cat or ls. */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

let guarded = false;

export function processIo(): CliIo {
  if (!guarded) {
    guarded = true;
    quietOnClosedPipe(process.stdout);
    quietOnClosedPipe(process.stderr);
  }
  return {
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
    errIsTerminal: process.stderr.isTTY === true,
  };
}

export function printJson(io: CliIo, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}
