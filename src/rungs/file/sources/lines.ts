import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** Yields the lines of a file one by one (node:readline), skipping blank ones; never holds the file. */
export async function* linesOf(path: string, signal?: AbortSignal): AsyncGenerator<string> {
  const input = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) {
      if (signal?.aborted) throw signal.reason;
      if (line.trim() !== '') yield line;
    }
  } finally {
    lines.close();
    input.destroy();
  }
}
