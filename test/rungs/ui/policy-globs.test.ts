import { describe, expect, it } from 'vitest';
import { checkUrl, clickAllowed, parsePolicy } from '../../../src/rungs/ui/index.js';
import { hostAllowed } from '../../../src/rungs/ui/policy.js';

describe("a policy's globs", () => {
  it('with many stars answer at once on a long name or path (they run on RE2)', () => {
    const policy = parsePolicy({
      origins: ['http://127.0.0.1:*'],
      paths: ['/**a**a**a**a**a**a**b'],
      clickNames: ['*a*a*a*a*a*a*b'],
    });
    const started = performance.now();
    // A backtracking engine spends seconds on 60 a's here, and minutes on a few more.
    expect(clickAllowed(policy, 'a'.repeat(60))).toBe(false);
    expect(checkUrl(policy, `http://127.0.0.1:8080/${'a'.repeat(60)}`, true)).toMatchObject({
      allowed: false,
    });
    expect(clickAllowed(policy, `${'a'.repeat(60)}b`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('keep their meaning: * within a segment, ** across, any case', () => {
    const policy = parsePolicy({ origins: ['http://127.0.0.1:8080'], paths: ['/app/*/view', '/docs/**'] });
    expect(checkUrl(policy, 'http://127.0.0.1:8080/APP/m-1/view', true)).toEqual({ allowed: true });
    expect(checkUrl(policy, 'http://127.0.0.1:8080/app/m/1/view', true)).toMatchObject({ allowed: false });
    expect(checkUrl(policy, 'http://127.0.0.1:8080/docs/a/b/c', true)).toEqual({ allowed: true });
  });
});

describe("the hosts whose cookies a session carries from a person's browser", () => {
  const policy = parsePolicy({ origins: ['http://127.0.0.1:8080', 'https://*.intranet.example'] });

  it('are the hosts of the allowed origins, any port and scheme, a leading dot or not', () => {
    expect(hostAllowed(policy, '127.0.0.1')).toBe(true);
    expect(hostAllowed(policy, 'wiki.intranet.example')).toBe(true);
    expect(hostAllowed(policy, '.wiki.intranet.example')).toBe(true);
    // Sent by the browser to every subdomain, the allowed ones among them.
    expect(hostAllowed(policy, '.intranet.example')).toBe(true);
  });

  it('are never another site, nor a host that only ends like an allowed one', () => {
    expect(hostAllowed(policy, 'mail.example.com')).toBe(false);
    expect(hostAllowed(policy, 'intranet.example')).toBe(false);
    expect(hostAllowed(policy, '.mail.example')).toBe(false);
    expect(hostAllowed(policy, 'intranet.example.evil.test')).toBe(false);
    expect(hostAllowed(policy, '127.0.0.10')).toBe(false);
  });
});
