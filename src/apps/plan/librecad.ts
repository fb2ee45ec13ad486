import { chmod, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { runWrapped } from '../../rungs/cli/run-wrapped.js';

/** Debian's programs the drafting tools drive; tests and deployments may point elsewhere. */
export interface DraftingPrograms {
  librecad: string;
  pdftoppm: string;
  pdftocairo: string;
  pdfinfo: string;
}

export const DEBIAN_DRAFTING: DraftingPrograms = {
  librecad: '/usr/bin/librecad',
  pdftoppm: '/usr/bin/pdftoppm',
  pdftocairo: '/usr/bin/pdftocairo',
  pdfinfo: '/usr/bin/pdfinfo',
};

export const LIBRECAD_HINT =
  'LibreCAD (Debian package librecad) prints the DXF to PDF; install it with bash scripts/setup.sh design. The message carries its output.';

/** A scratch folder beside the output, so finished files reach their place by rename. */
async function scratch(nextTo: string): Promise<string> {
  return mkdtemp(join(dirname(nextTo), '.lift-draft-'));
}

/**
 * Prints the DXF to PDF with LibreCAD's own dxf2pdf, centred at the sheet's scale on the paper
 * the DXF's plot limits name. Qt's offscreen platform means no display is needed.
 */
export async function printDxf(
  dxf: string,
  pdf: string,
  scale: number,
  ctx: ToolContext,
  programs = DEBIAN_DRAFTING,
): Promise<void> {
  const dir = await scratch(pdf);
  try {
    const runtime = join(dir, 'xdg');
    await mkdir(runtime, { mode: 0o700 });
    const result = await runWrapped({
      program: programs.librecad,
      args: ['dxf2pdf', '-c', '-s', String(1 / scale), '-t', dir, dxf],
      deadline: Math.min(ctx.deadline, Date.now() + 60_000),
      signal: ctx.signal,
      home: dir,
      env: { QT_QPA_PLATFORM: 'offscreen', XDG_RUNTIME_DIR: runtime },
      input: '',
    });
    const printed = join(dir, basename(dxf).replace(/\.dxf$/, '.pdf'));
    try {
      await chmod(printed, 0o600);
    } catch (error) {
      throw new LiftError('PROGRAM_FAILED', `LibreCAD printed no PDF: ${result.stderr.text.slice(-400)}`, {
        hint: LIBRECAD_HINT,
        cause: error,
      });
    }
    await rename(printed, pdf);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The first page of a PDF as a PNG, by poppler's pdftoppm. */
export async function pdfToPng(
  pdf: string,
  png: string,
  dpi: number,
  ctx: ToolContext,
  programs = DEBIAN_DRAFTING,
): Promise<void> {
  const dir = await scratch(png);
  try {
    await runWrapped({
      program: programs.pdftoppm,
      args: ['-png', '-r', String(dpi), '-singlefile', '-f', '1', '-l', '1', pdf, join(dir, 'page')],
      deadline: Math.min(ctx.deadline, Date.now() + 60_000),
      signal: ctx.signal,
      input: '',
    });
    await chmod(join(dir, 'page.png'), 0o600);
    await rename(join(dir, 'page.png'), png);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
