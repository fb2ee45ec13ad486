import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { LiftError } from '../../contract/errors.js';

const run = promisify(execFile);

/** Runs a poppler tool with a bounded wait; its failure is a PROGRAM_FAILED naming the file. */
async function poppler(program: string, args: string[], signal: AbortSignal): Promise<string> {
  try {
    const { stdout } = await run(program, args, {
      timeout: 30_000,
      signal,
      maxBuffer: 32 * 1024 * 1024,
      encoding: 'utf8',
    });
    return stdout;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    const message = error instanceof Error ? error.message : String(error);
    throw new LiftError(
      'PROGRAM_FAILED',
      `${program} could not read ${args.at(-2) ?? args.at(-1)}: ${message}`,
      {
        hint: 'The PDF the office suite wrote is missing or damaged; run the tool again, and check that poppler-utils is installed.',
        cause: error,
      },
    );
  }
}

export async function pdfPageCount(path: string, signal: AbortSignal): Promise<number> {
  const info = await poppler('/usr/bin/pdfinfo', [path], signal);
  const pages = /^Pages:\s+(\d+)/m.exec(info);
  return pages ? Number(pages[1]) : 0;
}

/** The text of each page, in reading order (pdftotext separates pages with form feeds). */
export async function pdfPages(path: string, signal: AbortSignal): Promise<string[]> {
  const text = await poppler('/usr/bin/pdftotext', ['-layout', '-enc', 'UTF-8', path, '-'], signal);
  const pages = text.split('\f');
  if (pages.at(-1)?.trim() === '') pages.pop();
  return pages;
}

/** Collapses whitespace so texts can be compared however the PDF broke its lines. */
export function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}
