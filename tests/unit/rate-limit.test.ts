import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../src/serve/rate-limit';

describe('rate limiter', () => {
  it('allows `limit` hits per window and says how long to wait', () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 2, windowMs: 1000, now: () => now });
    limiter.hit('a');
    now = 100;
    limiter.hit('a');
    expect(limiter.retryAfter('a')).toBe(900);
    expect(limiter.retryAfter('b')).toBe(0);
    now = 1000;
    expect(limiter.retryAfter('a')).toBe(0);
    limiter.reset('a');
    expect(limiter.size).toBe(0);
  });

  it('forgets clients whose window has passed, and never holds more than maxKeys', () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 5, windowMs: 60_000, maxKeys: 1000, now: () => now });
    for (let i = 0; i < 30_000; i++) limiter.hit(`10.0.${i >> 8}.${i & 255}`);
    expect(limiter.size).toBeLessThanOrEqual(1000);
    // The most recent clients are the ones kept.
    limiter.hit('10.0.117.47');
    expect(limiter.retryAfter('10.0.117.47')).toBe(0);
    now = 61_000;
    limiter.hit('late');
    expect(limiter.size).toBe(1);
  });
});
