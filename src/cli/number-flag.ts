import { UsageError } from './args.js';

export interface NumberRange {
  /** The smallest value allowed; with `aboveMin`, values must be greater than it. */
  min: number;
  max: number;
  /** What the number counts, for the message: `seconds`, `bytes`, `model calls`. */
  unit: string;
  aboveMin?: boolean;
  integer?: boolean;
}

function describe(range: NumberRange): string {
  const what = range.integer ? `a whole number of ${range.unit}` : range.unit;
  return range.aboveMin
    ? `${what}, more than ${range.min} and at most ${range.max}`
    : `${what} from ${range.min} to ${range.max}`;
}

/**
 * A number given on the command line, inside its range, or a BAD_INPUT usage error that names
 * the range, so that `--deadline 1e9` is refused instead of becoming an instant timeout.
 */
export function numberFlag(text: string | undefined, flag: string, range: NumberRange): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  const low = range.aboveMin ? value > range.min : value >= range.min;
  const fits = text.trim() !== '' && Number.isFinite(value) && low && value <= range.max;
  if (!fits || (range.integer && !Number.isInteger(value))) {
    throw new UsageError(`BAD_INPUT: ${flag} takes ${describe(range)}, not '${text}'.`);
  }
  return value;
}
