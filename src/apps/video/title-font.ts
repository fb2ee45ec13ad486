import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { runVideoProgram } from './programs.js';
import type { Measure, Measured, TitleFont } from './title.js';

/** The family, style, PostScript name and file, one a line, that fc-match prints for a pattern. */
const FORMAT = '%{family}\\n%{style[0]}\\n%{postscriptname}\\n%{file}\\n';

/**
 * The font fontconfig gives for a family and weight: the same lookup Chromium makes when a page
 * asks for the family. fontconfig always answers with some font; when none of the answer's family
 * names is the one asked, the family is not installed and the title is refused (BAD_INPUT), since
 * it would be drawn in another font than the one named.
 */
export async function findFont(
  family: string,
  bold: boolean,
  fcMatch: string,
  ctx: Pick<ToolContext, 'deadline' | 'signal'>,
): Promise<TitleFont> {
  // A pattern's `-`, `:` and `,` are fontconfig syntax; the schema allows none of them in a family.
  const result = await runVideoProgram(
    fcMatch,
    ['-f', FORMAT, `${family}:${bold ? 'bold' : 'regular'}`],
    ctx,
  );
  const [families = '', style = '', postscript = '', file = ''] = result.stdout.text.split('\n');
  const names = families.split(',').map((name) => name.trim());
  const matched = names.find((name) => name.toLowerCase() === family.trim().toLowerCase());
  if (!matched || !file)
    throw new LiftError('BAD_INPUT', `font: no font of the family '${family}' is installed here.`, {
      hint: `fontconfig offered ${names[0] || 'nothing'} instead. Give an installed family (fc-list : family lists them), e.g. DejaVu Sans.`,
      outcome: 'not_started',
      details: { field: 'font' },
    });
  return { family: matched, style, postscript, file, bold };
}

/** An alias per font file, so a family registered once is measured by its file and no other. */
const registered = new Map<string, string>();

/**
 * Measures the lines in the font's own file with @napi-rs/canvas: each line's advance (the wider
 * of the shaped line and its letters added up, as lottie-web sets letters one by one), and the
 * ink above the first baseline and below the last.
 */
export async function measurer(font: TitleFont, lines: string[]): Promise<Measure> {
  const { GlobalFonts, createCanvas } = await import('@napi-rs/canvas');
  let alias = registered.get(font.file);
  if (!alias) {
    alias = `Lift Title ${registered.size + 1}`;
    GlobalFonts.registerFromPath(font.file, alias);
    registered.set(font.file, alias);
  }
  const context = createCanvas(1, 1).getContext('2d');
  const family = alias;
  return (size: number): Measured => {
    context.font = `${size}px "${family}"`;
    const metrics = lines.map((line) => context.measureText(line));
    const letters = lines.map((line) =>
      [...line].reduce((sum, letter) => sum + context.measureText(letter).width, 0),
    );
    const first = metrics[0];
    const last = metrics[metrics.length - 1];
    return {
      lines: metrics.map((metric, index) => Math.max(metric.width, letters[index] ?? 0)),
      ascent: Math.max(first?.actualBoundingBoxAscent ?? 0, 0),
      descent: Math.max(last?.actualBoundingBoxDescent ?? 0, 0),
      fontAscent: Math.round(((first?.fontBoundingBoxAscent ?? size * 0.75) / size) * 100),
    };
  };
}
