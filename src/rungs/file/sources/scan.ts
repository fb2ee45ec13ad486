import type { Cell } from '../columns.js';

/** What a scan reports, in order: the header once, then each data row (1-based). */
export interface ScanHandlers {
  header(names: string[]): void;
  /** Return false to stop reading. */
  row(cells: Cell[], row: number): boolean | undefined;
}

/**
 * Streams one export file through a parser, in bounded memory. An exception thrown by a
 * handler stops the scan and rejects with that exception.
 */
export type Scanner = (path: string, handlers: ScanHandlers, signal?: AbortSignal) => Promise<void>;
