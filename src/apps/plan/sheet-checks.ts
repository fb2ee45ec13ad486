import type { ToolContext } from '../../contract/context.js';
import type { Check } from '../../contract/envelope.js';
import { runWrapped } from '../../rungs/cli/run-wrapped.js';
import { DEBIAN_DRAFTING, type DraftingPrograms } from './librecad.js';
import type { PlanFile } from './plan-file.js';
import { MM_PER_INCH, PAPERS, STOREY_GAP } from './sheet.js';

const MM_PER_POINT = MM_PER_INCH / 72;
/** The plot boundary's colour in the PDF: AutoCAD colour 3, green. */
const PLOT_STROKE = /stroke:rgb\(0%,100%,0%\)/;

interface Box {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

/** The extent, in PDF points, of every path drawn in the plot boundary's colour, read from poppler's SVG. */
export function plotExtent(svg: string): Box | undefined {
  let box: Box | undefined;
  for (const match of svg.matchAll(
    /<path [^>]*style="([^"]*)"[^>]*d="([^"]*)"(?:[^>]*transform="matrix\(([^)]*)\)")?/g,
  )) {
    if (!PLOT_STROKE.test(match[1] ?? '')) continue;
    const [a = 1, , , d = 1, e = 0, f = 0] = (match[3] ?? '1,0,0,1,0,0').split(',').map(Number);
    const numbers = (match[2] ?? '').match(/-?\d+(?:\.\d+)?/g)?.map(Number) ?? [];
    for (let i = 0; i + 1 < numbers.length; i += 2) {
      const x = a * numbers[i]! + e;
      const y = d * numbers[i + 1]! + f;
      box = box
        ? {
            minX: Math.min(box.minX, x),
            maxX: Math.max(box.maxX, x),
            minY: Math.min(box.minY, y),
            maxY: Math.max(box.maxY, y),
          }
        : { minX: x, maxX: x, minY: y, maxY: y };
    }
  }
  return box;
}

/** Two checks on the printed sheet: the paper and page count, and the scale measured on the plot boundary. */
export async function sheetChecks(
  pdf: string,
  plan: PlanFile,
  ctx: ToolContext,
  programs: DraftingPrograms = DEBIAN_DRAFTING,
): Promise<Check[]> {
  const deadline = Math.min(ctx.deadline, Date.now() + 30_000);
  const [info, svg] = await Promise.all([
    runWrapped({ program: programs.pdfinfo, args: [pdf], deadline, signal: ctx.signal, input: '' }),
    runWrapped({
      program: programs.pdftocairo,
      args: ['-svg', '-f', '1', '-l', '1', pdf, '-'],
      deadline,
      signal: ctx.signal,
      input: '',
      cap: 64 * 1024 * 1024,
    }),
  ]);
  const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info.stdout.text);
  const pages = Number(/Pages:\s+(\d+)/.exec(info.stdout.text)?.[1] ?? 0);
  const [paperW, paperH] = PAPERS[plan.sheet.paper];
  const pageW = Number(size?.[1] ?? 0) * MM_PER_POINT;
  const pageH = Number(size?.[2] ?? 0) * MM_PER_POINT;
  const paperOk = pages === 1 && Math.abs(pageW - paperW) <= 1 && Math.abs(pageH - paperH) <= 1;
  const box = plotExtent(svg.stdout.text);
  const count = plan.storeys.length;
  const modelWidth = count * plan.plot.width + (count - 1) * STOREY_GAP;
  const expectedW = (modelWidth * MM_PER_INCH) / plan.sheet.scale;
  const expectedD = (plan.plot.depth * MM_PER_INCH) / plan.sheet.scale;
  const measuredW = box ? (box.maxX - box.minX) * MM_PER_POINT : 0;
  const measuredD = box ? (box.maxY - box.minY) * MM_PER_POINT : 0;
  const scaleOk =
    box !== undefined &&
    Math.abs(measuredW / expectedW - 1) <= 0.01 &&
    Math.abs(measuredD / expectedD - 1) <= 0.01;
  const measuredScale = measuredD > 0 ? Math.round((plan.plot.depth * MM_PER_INCH) / measuredD) : 0;
  return [
    {
      name: 'pdf_paper',
      passed: paperOk,
      detail: `${pages} page(s), ${pageW.toFixed(0)} x ${pageH.toFixed(0)} mm; ${plan.sheet.paper} landscape is ${paperW} x ${paperH}.`,
    },
    {
      name: 'pdf_true_scale',
      passed: scaleOk,
      detail: box
        ? `The plot boundary measures ${measuredW.toFixed(1)} x ${measuredD.toFixed(1)} mm on paper (expected ${expectedW.toFixed(1)} x ${expectedD.toFixed(1)}): 1:${measuredScale}.`
        : 'No plot boundary found in the printed sheet.',
    },
  ];
}
