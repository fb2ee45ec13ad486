import type { LoggedEvent } from './events.js';

/** Reads of an event's fields for its words (serve/event-words.ts, apps/<family>/events.ts). */

/** A non-empty string field, else undefined. */
export const textOf = (event: LoggedEvent, key: string): string | undefined =>
  typeof event[key] === 'string' && event[key] !== '' ? (event[key] as string) : undefined;

/** A finite number field, else undefined. */
export const countOf = (event: LoggedEvent, key: string): number | undefined =>
  typeof event[key] === 'number' && Number.isFinite(event[key]) ? (event[key] as number) : undefined;

/** ` in 1.2 s`, or nothing when the time is unknown. */
export const inSeconds = (ms: number | undefined) =>
  ms === undefined ? '' : ` in ${(ms / 1000).toFixed(1)} s`;

/** `1 row`, `3 rows`. */
export const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** `stage-name` as words: `stage name`. */
export const spaced = (value: string) => value.replace(/[-_]+/g, ' ');
