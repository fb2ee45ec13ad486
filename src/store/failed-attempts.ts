import { isIPv6 } from 'node:net';

/** Wrong tokens an address may send before it has to wait: a person's typos cost nothing. */
const FREE_FAILURES = 3;
const FIRST_WAIT_MS = 1_000;
/** The longest wait: guessing stays hopeless, and a person sharing the address is not shut out for long. */
const LONGEST_WAIT_MS = 60_000;
/** An address that sent no wrong token for this long starts afresh. */
const FORGET_MS = 15 * 60_000;
/** Addresses remembered at most: a flood of distinct addresses cannot grow memory without bound. */
const CAPACITY = 10_000;

interface Failures {
  count: number;
  last: number;
  /** No attempt from the address is checked before this time. */
  until: number;
}

export interface AttemptsOptions {
  capacity?: number;
  now?: () => number;
}

/**
 * Wrong tokens per client address (the serve token at the console's sign-in and at
 * `lift serve --http`'s bearer check): after a few, each one makes the address wait, twice as
 * long as the time before, up to a minute, and an attempt that comes before its wait is over is
 * refused unchecked, so a guesser learns nothing by sending faster. An address that never sent
 * a wrong token is never slowed. IPv6 addresses count by their /64, which one host can fill;
 * `X-Forwarded-For` is never read, since any client can write it.
 */
export class FailedAttempts {
  readonly #failures = new Map<string, Failures>();
  readonly #capacity: number;
  readonly #now: () => number;

  constructor(options: AttemptsOptions = {}) {
    this.#capacity = options.capacity ?? CAPACITY;
    this.#now = options.now ?? Date.now;
  }

  /** How long the address must still wait before its next attempt is checked; 0 when it need not. */
  waitMs(address: string | undefined): number {
    // Asked on every request; with no wrong token remembered, the address need not be parsed.
    if (this.#failures.size === 0) return 0;
    const key = clientKey(address);
    const failures = this.#failures.get(key);
    if (!failures) return 0;
    const now = this.#now();
    if (now - failures.last > FORGET_MS) {
      this.#failures.delete(key);
      return 0;
    }
    return Math.max(0, failures.until - now);
  }

  /** A wrong token from the address: it waits before its next attempt is checked. */
  failed(address: string | undefined): void {
    const key = clientKey(address);
    const now = this.#now();
    const before = this.#failures.get(key);
    const count = before && now - before.last <= FORGET_MS ? before.count + 1 : 1;
    // Deleted and set again: the map's order is then the order of the last failures, oldest first.
    this.#failures.delete(key);
    if (this.#failures.size >= this.#capacity) this.#makeRoom(now);
    this.#failures.set(key, { count, last: now, until: now + waitAfter(count) });
  }

  /** How many addresses are remembered (for tests and the load check). */
  get size(): number {
    return this.#failures.size;
  }

  /**
   * Forgets the addresses that failed longest ago until there is room: the map is in the
   * order of last failures, so they are at its head (the quiet ones among them), and each
   * failure costs a step or two however full the table is.
   */
  #makeRoom(now: number): void {
    for (const [key, failures] of this.#failures) {
      if (this.#failures.size < this.#capacity && now - failures.last <= FORGET_MS) break;
      this.#failures.delete(key);
    }
  }
}

function waitAfter(count: number): number {
  if (count <= FREE_FAILURES) return 0;
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** (count - FREE_FAILURES - 1));
}

/** The part of an address that names one client: IPv4 as it is, IPv6 by its /64. */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('%')[0]?.split('::') ?? [];
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`;
}
