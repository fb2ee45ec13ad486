import { describe, expect, it } from 'vitest';
import { clientKey, FailedAttempts } from '../../src/store/failed-attempts.js';

/** A table on a clock the test moves. */
function table(capacity?: number) {
  let now = 1_000_000;
  const attempts = new FailedAttempts({ now: () => now, ...(capacity ? { capacity } : {}) });
  return { attempts, advance: (ms: number) => (now += ms) };
}

describe('wrong tokens per client address', () => {
  it('let three through, then make the address wait 1 s, 2 s, 4 s … up to a minute', () => {
    const { attempts, advance } = table();
    const waits: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const wait = attempts.waitMs('127.0.0.2');
      waits.push(wait);
      advance(wait);
      attempts.failed('127.0.0.2');
    }
    expect(waits).toEqual([0, 0, 0, 0, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
  });

  it('never slow an address that sent no wrong token, whatever others send', () => {
    const { attempts } = table();
    for (let attempt = 0; attempt < 50; attempt++) attempts.failed('127.0.0.2');
    expect(attempts.waitMs('127.0.0.2')).toBeGreaterThan(0);
    expect(attempts.waitMs('127.0.0.3')).toBe(0);
    expect(attempts.waitMs(undefined)).toBe(0);
  });

  it('forget an address that sent no wrong token for a quarter of an hour', () => {
    const { attempts, advance } = table();
    for (let attempt = 0; attempt < 8; attempt++) attempts.failed('10.0.0.9');
    advance(15 * 60_000 + 1);
    expect(attempts.waitMs('10.0.0.9')).toBe(0);
    attempts.failed('10.0.0.9');
    // Counted afresh: one failure is free again.
    expect(attempts.waitMs('10.0.0.9')).toBe(0);
    expect(attempts.size).toBe(1);
  });

  it('stay within their capacity under a flood of distinct addresses, keeping the latest', () => {
    const { attempts, advance } = table(1_000);
    for (let host = 0; host < 50_000; host++) {
      attempts.failed(`10.${(host >> 16) & 255}.${(host >> 8) & 255}.${host & 255}`);
      if (host % 1_000 === 0) advance(1);
    }
    expect(attempts.size).toBe(1_000);
    for (let again = 0; again < 4; again++) attempts.failed('10.0.195.79');
    expect(attempts.waitMs('10.0.195.79')).toBeGreaterThan(0);
    expect(attempts.size).toBe(1_000);
  });

  it('count an IPv6 host by its /64 and an IPv4-mapped address as the IPv4 one', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:0db8:0001:0002:ffff:1:2:3'));
    expect(clientKey('2001:db8:1:2:aaaa::1')).not.toBe(clientKey('2001:db8:1:3::1'));
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('::ffff:127.0.0.2')).toBe('127.0.0.2');
    const { attempts } = table();
    for (let host = 0; host < 5; host++) attempts.failed(`2001:db8:1:2::${host + 1}`);
    expect(attempts.waitMs('2001:db8:1:2::99')).toBeGreaterThan(0);
    expect(attempts.size).toBe(1);
  });
});
