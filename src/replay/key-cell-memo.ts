import type { KeyCellLook, Target } from '../rungs/ui/locator.js';

/**
 * The key cell of the row the last keyed read found, and the page it was seen on: a
 * checkpoint that compares that cell is answered from it, with no look of its own.
 */
export class KeyCellMemo {
  readonly #pageStamp: () => string;
  #read: { target: Target; cell: KeyCellLook; stamp: string } | undefined;

  /** `pageStamp`: the page as it is now (documents loaded, last action); the memo holds only on that page. */
  constructor(pageStamp: () => string) {
    this.#pageStamp = pageStamp;
  }

  remember(target: Target, cell: KeyCellLook): void {
    this.#read = { target, cell, stamp: this.#pageStamp() };
  }

  forget(): void {
    this.#read = undefined;
  }

  /**
   * The key cell a read saw, for a checkpoint target that is that cell: the same table, key
   * and row (the column being the key), with no document loaded and nothing done since.
   */
  known(target: Target): KeyCellLook | undefined {
    const read = this.#read;
    if (!read || read.stamp !== this.#pageStamp()) return undefined;
    return isKeyCellOf(target, read.target) ? read.cell : undefined;
  }
}

/**
 * Whether `asked` is the key cell of the row `read` names: the same table, key and row, the
 * column being the key (a keyed read sees that cell in the same look).
 */
export function isKeyCellOf(asked: Target, read: Target): boolean {
  const cell = asked.locator;
  const seen = read.locator;
  if (cell.by !== 'cell' || seen.by !== 'cell' || cell.element || !cell.key) return false;
  return (
    cell.column === cell.key &&
    cell.key === seen.key &&
    cell.row === seen.row &&
    cell.table === seen.table &&
    JSON.stringify([asked.frame, asked.within, asked.nth]) ===
      JSON.stringify([read.frame, read.within, read.nth])
  );
}
