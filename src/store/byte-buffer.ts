const INITIAL_BYTES = 64 * 1024;
const KEEP_BYTES = 1024 * 1024;

/**
 * Text encoded as it arrives into memory outside the JavaScript heap. Lines that wait for
 * a flush as strings outlive young-generation collections and get copied and promoted;
 * as bytes they cost the collector nothing.
 */
export class ByteBuffer {
  #bytes = Buffer.allocUnsafe(INITIAL_BYTES);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  append(text: string): void {
    // UTF-8 takes at most three bytes per UTF-16 unit.
    const room = text.length * 3;
    if (this.#length + room > this.#bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.#bytes.length * 2, this.#length + room));
      this.#bytes.copy(grown, 0, 0, this.#length);
      this.#bytes = grown;
    }
    this.#length += this.#bytes.write(text, this.#length);
  }

  /** The bytes so far; valid until the next append. */
  view(): Buffer {
    return this.#bytes.subarray(0, this.#length);
  }

  clear(): void {
    this.#length = 0;
    // One huge batch should not pin its memory for the life of the process.
    if (this.#bytes.length > KEEP_BYTES) this.#bytes = Buffer.allocUnsafe(INITIAL_BYTES);
  }
}
