import { LiftError } from '../../contract/errors.js';
import type { RoomKind } from './plan-file.js';

export const FT = 12;

export interface KindRule {
  /** Area the search aims for, square feet (0: no target). */
  targetSqft: number;
  /** Shortest side a usable room of this kind has, feet. */
  minSideFt: number;
  /** Needs an outside wall for a window. */
  daylight: boolean;
  /** Open to the sky or the street: its edges count as outside walls for its neighbours. */
  open: boolean;
  /** Long and narrow by nature (no corridor-shape penalty). */
  long: boolean;
}

export const KINDS: Record<RoomKind, KindRule> = {
  porch: { targetSqft: 190, minSideFt: 9.5, daylight: false, open: true, long: true },
  terrace: { targetSqft: 0, minSideFt: 6, daylight: false, open: true, long: true },
  drawing: { targetSqft: 210, minSideFt: 11, daylight: true, open: false, long: false },
  dining: { targetSqft: 140, minSideFt: 9.5, daylight: true, open: false, long: false },
  kitchen: { targetSqft: 100, minSideFt: 7.5, daylight: true, open: false, long: false },
  lounge: { targetSqft: 230, minSideFt: 11, daylight: true, open: false, long: false },
  stairs: { targetSqft: 80, minSideFt: 6.5, daylight: false, open: false, long: true },
  passage: { targetSqft: 0, minSideFt: 3.5, daylight: false, open: false, long: true },
  bedroom: { targetSqft: 170, minSideFt: 10.5, daylight: true, open: false, long: false },
  bath: { targetSqft: 42, minSideFt: 5, daylight: false, open: false, long: false },
  dress: { targetSqft: 30, minSideFt: 3.5, daylight: false, open: false, long: true },
};

/** A bedroom cell (bedroom with its bath, and a dress where the cell leaves room) is at least this wide. */
export const CELL_MIN_FT = 11;

export interface StoreyProgram {
  level: number;
  /** Bedrooms in the rear band. */
  rear: number;
  /** A bedroom over the drawing room (upper storeys only). */
  front: boolean;
}

export const BEDROOM_HINT =
  'Ask for fewer bedrooms, more storeys (storeys: 2), or a wider plot; each storey holds one bedroom per 11 ft of plot width at the back, and upper storeys one more at the front.';

/** Spreads the bedrooms over the storeys: ground floor first, then upper floors back and front. */
export function storeyPrograms(bedrooms: number, storeys: number, widthFt: number): StoreyProgram[] {
  const perBand = Math.floor(widthFt / CELL_MIN_FT);
  const programs: StoreyProgram[] = [];
  let left = bedrooms;
  for (let level = 0; level < storeys; level += 1) {
    const upperLeft = storeys - level - 1;
    // Keep at least one bedroom for each upper storey still to come.
    const rear = Math.max(1, Math.min(perBand, left - upperLeft));
    left -= rear;
    const front = level > 0 && left > upperLeft && left > 0;
    if (front) left -= 1;
    programs.push({ level, rear, front });
  }
  if (left > 0 || perBand < 1) {
    throw new LiftError(
      'REQUEST_REFUSED',
      `${bedrooms} bedrooms do not fit on ${storeys} storey(s) of a ${widthFt} ft wide plot: each storey holds ${perBand} at the back${storeys > 1 ? ' and upper storeys one at the front' : ''}.`,
      { hint: BEDROOM_HINT },
    );
  }
  return programs;
}
