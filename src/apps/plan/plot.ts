import { LiftError } from '../../contract/errors.js';

/** Square feet in one marla, the usual value in Punjab's housing schemes. */
export const SQFT_PER_MARLA = 225;

/** Marla -> feet wide (road side) x deep: the plot sizes housing schemes sell. */
export const MARLA_PLOTS: ReadonlyMap<number, readonly [number, number]> = new Map([
  [2, [15, 30]],
  [3, [20, 34]],
  [4, [25, 36]],
  [5, [25, 45]],
  [6, [30, 45]],
  [7, [30, 52]],
  [8, [30, 60]],
  [10, [35, 65]],
  [12, [40, 68]],
  [15, [45, 75]],
  [20, [50, 90]],
  [40, [75, 120]],
]);

export interface Plot {
  /** Feet along the road. */
  widthFt: number;
  /** Feet back from the road. */
  depthFt: number;
  /** The plot as the caller said it. */
  asGiven: string;
  /** Its area in marla, to one decimal. */
  marla: number;
}

const FEET_PER_METRE = 3.280839895;
const SIZES = [...MARLA_PLOTS.keys()].join(', ');

export const PLOT_HINT = `Say the plot the way people do: "10 marla", "1 kanal", "35 x 65 ft" or "12 x 20 m" (width along the road first). Marla sizes known: ${SIZES}; 1 kanal is 20 marla.`;

function bad(text: string, why: string): never {
  throw new LiftError('BAD_INPUT', `plot: '${text}' ${why}.`, { hint: PLOT_HINT });
}

function fromMarla(marla: number, text: string): Plot {
  const size = MARLA_PLOTS.get(marla);
  if (!size) bad(text, `is not one of the usual plot sizes (${SIZES} marla)`);
  const [widthFt, depthFt] = size;
  return { widthFt, depthFt, asGiven: text, marla: areaInMarla(widthFt, depthFt) };
}

export function areaInMarla(widthFt: number, depthFt: number): number {
  return Math.round(((widthFt * depthFt) / SQFT_PER_MARLA) * 10) / 10;
}

/** Reads a plot the way people say it: "10 marla", "1 kanal", "35 x 65 ft", "35' x 65'", "12 x 20 m". */
export function parsePlot(text: string): Plot {
  const said = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const land = /^(\d+(?:\.\d+)?) ?-?(marla|marlas|kanal|kanals)$/.exec(said);
  if (land) {
    const count = Number(land[1]);
    return fromMarla(land[2]!.startsWith('kanal') ? count * 20 : count, text.trim());
  }
  const sides =
    /^(\d+(?:\.\d+)?) ?(?:'|ft|feet)? ?(?:x|by|\*) ?(\d+(?:\.\d+)?) ?('|ft|feet|m|metres|meters)?$/.exec(
      said,
    );
  if (!sides) bad(text, 'is neither a marla or kanal size nor two sides');
  const metres = sides[3]?.startsWith('m');
  const factor = metres ? FEET_PER_METRE : 1;
  const widthFt = Math.round(Number(sides[1]) * factor * 4) / 4;
  const depthFt = Math.round(Number(sides[2]) * factor * 4) / 4;
  if (widthFt < 15 || depthFt < 30) bad(text, 'is smaller than any house plot (at least 15 x 30 ft)');
  if (widthFt > 120 || depthFt > 200) bad(text, 'is larger than this tool plans (at most 120 x 200 ft)');
  if (widthFt > depthFt * 1.5) bad(text, 'is much wider than deep; give the width along the road first');
  return { widthFt, depthFt, asGiven: text.trim(), marla: areaInMarla(widthFt, depthFt) };
}
