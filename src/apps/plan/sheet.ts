import { LiftError } from '../../contract/errors.js';
import type { PlanFile, Sheet } from './plan-file.js';
import { FT } from './program.js';

export type Paper = Sheet['paper'];

/** ISO paper, landscape, millimetres. */
export const PAPERS: Record<Paper, readonly [number, number]> = {
  A4: [297, 210],
  A3: [420, 297],
  A2: [594, 420],
  A1: [841, 594],
  A0: [1189, 841],
};

/** The scales a drafter would use for a house, most detailed first. */
export const SCALES = [50, 75, 100, 125, 150, 200, 250, 300] as const;

export const MM_PER_INCH = 25.4;
/** Clear paper around the frame. */
export const MARGIN_MM = 10;
/** Height of the title block at the foot of the frame. */
export const TITLE_MM = 36;
/** Room between the frame and the drawing. */
const INSET_MM = 5;
/** Gap between two storeys drawn side by side. */
export const STOREY_GAP = 10 * FT;
/** Room around each storey's plot for its dimensions, title and the road. */
export const AROUND = { left: 7 * FT, right: 7 * FT, below: 10 * FT, above: 5 * FT };

/** The drawing's extents in inches, before it is placed on a sheet. */
export function drawingExtents(plan: PlanFile): { width: number; height: number } {
  const count = plan.storeys.length;
  return {
    width: AROUND.left + count * plan.plot.width + (count - 1) * STOREY_GAP + AROUND.right,
    height: AROUND.below + plan.plot.depth + AROUND.above,
  };
}

/** Millimetres the drawing area of a sheet has, inside the frame and above the title block. */
export function roomOn(paper: Paper): { width: number; height: number } {
  const [width, height] = PAPERS[paper];
  return {
    width: width - 2 * MARGIN_MM - 2 * INSET_MM,
    height: height - 2 * MARGIN_MM - TITLE_MM - 2 * INSET_MM,
  };
}

export function neededMm(plan: PlanFile, scale: number): { width: number; height: number } {
  const extents = drawingExtents(plan);
  return {
    width: Math.ceil((extents.width * MM_PER_INCH) / scale),
    height: Math.ceil((extents.height * MM_PER_INCH) / scale),
  };
}

export function fits(plan: PlanFile, paper: Paper, scale: number): boolean {
  const need = neededMm(plan, scale);
  const room = roomOn(paper);
  return need.width <= room.width && need.height <= room.height;
}

/** The most detailed scale at which the plan fits the paper, or undefined. */
export function bestScale(plan: PlanFile, paper: Paper): number | undefined {
  return SCALES.find((scale) => fits(plan, paper, scale));
}

/** "at 1:100 the plan needs 167 x 258 mm and A3 has room for 390 x 231" */
export function misfit(plan: PlanFile, paper: Paper, scale: number): string {
  const need = neededMm(plan, scale);
  const room = roomOn(paper);
  return `at 1:${scale} the plan needs ${need.width} x ${need.height} mm and ${paper} has room for ${room.width} x ${room.height}`;
}

/** The sheet for a plan: the scale asked for, or the most detailed that fits; a misfit is refused with its reason. */
export function chooseSheet(plan: PlanFile, paper: Paper, scale?: number): Sheet {
  if (scale !== undefined) {
    if (!fits(plan, paper, scale)) {
      const better = bestScale(plan, paper);
      const larger = (Object.keys(PAPERS) as Paper[]).find(
        (other) => PAPERS[other][0] > PAPERS[paper][0] && fits(plan, other, scale),
      );
      const options = [
        better ? `1:${better} fits ${paper}` : undefined,
        larger ? `1:${scale} fits ${larger}` : undefined,
      ]
        .filter(Boolean)
        .join(', or ');
      throw new LiftError('REQUEST_REFUSED', `Couldn't draw that: ${misfit(plan, paper, scale)}.`, {
        hint: options ? `${options}.` : 'Choose a smaller scale or a bigger sheet.',
        details: {
          needed_mm: neededMm(plan, scale),
          room_mm: roomOn(paper),
          fits: better ? `1:${better}` : null,
        },
      });
    }
    return { paper, orientation: 'landscape', scale };
  }
  const found = bestScale(plan, paper);
  if (found === undefined) {
    const largest = SCALES[SCALES.length - 1] ?? 300;
    throw new LiftError('REQUEST_REFUSED', `Couldn't draw that: ${misfit(plan, paper, largest)}.`, {
      hint: 'Ask for a bigger sheet (paper: A2, A1 or A0).',
    });
  }
  return { paper, orientation: 'landscape', scale: found };
}
