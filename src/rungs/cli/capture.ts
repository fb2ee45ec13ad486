/** What was kept of one output stream: its head and tail, and how much was cut between them. */
export interface CapturedStream {
  /** Head, a cut notice when anything was cut, and tail. */
  text: string;
  /** The head alone, for parsers: it is the part of the output that is contiguous from the start. */
  head: string;
  /** Bytes the program wrote to the stream. */
  bytes: number;
  /** Bytes dropped between head and tail. */
  cutBytes: number;
  truncated: boolean;
}

/**
 * Keeps at most `cap` bytes of a stream however much the program prints: the first half
 * as it arrives, the last half in a sliding window. Memory stays bounded by the cap.
 */
export class StreamCapture {
  readonly #headCap: number;
  readonly #tailCap: number;
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #total = 0;

  constructor(cap: number) {
    this.#headCap = Math.ceil(cap / 2);
    this.#tailCap = Math.floor(cap / 2);
  }

  get bytes(): number {
    return this.#total;
  }

  push(chunk: Buffer): void {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headBytes < this.#headCap) {
      const take = Math.min(this.#headCap - this.#headBytes, rest.length);
      // Copy so the head never pins a large chunk from the stream's pool.
      this.#head.push(Buffer.from(rest.subarray(0, take)));
      this.#headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.#tailCap === 0) return;
    // The tail keeps views of the last chunks (no copies): at most the cap plus one chunk.
    if (rest.length >= this.#tailCap) {
      this.#tail = [rest.subarray(rest.length - this.#tailCap)];
      this.#tailBytes = this.#tailCap;
      return;
    }
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    while (this.#tailBytes - (this.#tail[0]?.length ?? 0) >= this.#tailCap) {
      this.#tailBytes -= this.#tail.shift()?.length ?? 0;
    }
  }

  result(): CapturedStream {
    const head = Buffer.concat(this.#head).toString('utf8');
    let tailBuffer = Buffer.concat(this.#tail);
    if (tailBuffer.length > this.#tailCap)
      tailBuffer = tailBuffer.subarray(tailBuffer.length - this.#tailCap);
    const tail = tailBuffer.toString('utf8');
    const cutBytes = this.#total - this.#headBytes - tailBuffer.length;
    const text = cutBytes > 0 ? `${head}\n… [${cutBytes} bytes cut] …\n${tail}` : head + tail;
    return { text, head, bytes: this.#total, cutBytes, truncated: cutBytes > 0 };
  }
}

/** The last `size` characters of everything printed on either stream, in arrival order. */
export class RecentText {
  readonly #size: number;
  #text = '';

  constructor(size = 1024) {
    this.#size = size;
  }

  push(chunk: Buffer): void {
    const last = chunk.length > this.#size ? chunk.subarray(chunk.length - this.#size) : chunk;
    this.#text = (this.#text + last.toString('utf8')).slice(-this.#size);
  }

  get text(): string {
    return this.#text;
  }
}
