import { createReadStream } from 'node:fs';
import type { Scanner } from './scan.js';

/** CSV (RFC 4180, quoted fields) or TSV (tab-separated, no quoting), parsed by csv-parse (loaded on the first read). */
export function delimitedScanner(delimiter: ',' | '\t'): Scanner {
  return async (path, handlers, signal) => {
    const { parse } = await import('csv-parse');
    return new Promise<void>((resolve, reject) => {
      const input = createReadStream(path, { highWaterMark: 1 << 20 });
      const parser = parse({
        delimiter,
        bom: true,
        relax_column_count: true,
        skip_empty_lines: true,
        ...(delimiter === '\t' ? { quote: false } : {}),
      });
      let seen = 0;
      let settled = false;
      const stop = (error?: unknown) => {
        if (settled) return;
        settled = true;
        input.destroy();
        parser.destroy();
        if (error === undefined) resolve();
        else reject(error);
      };
      const onAbort = () => stop(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      parser.on('data', (record: string[]) => {
        if (settled) return;
        try {
          if (seen === 0) handlers.header(record);
          else if (handlers.row(record, seen) === false) stop();
          seen++;
        } catch (error) {
          stop(error);
        }
      });
      parser.on('error', stop);
      input.on('error', stop);
      parser.on('end', () => {
        signal?.removeEventListener('abort', onAbort);
        if (seen === 0 && !settled) {
          try {
            handlers.header([]);
          } catch (error) {
            stop(error);
            return;
          }
        }
        stop();
      });
      input.pipe(parser);
    });
  };
}
