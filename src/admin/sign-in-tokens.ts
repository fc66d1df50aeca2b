/**
 * The one-time sign-in links of `site dev`: 32 random bytes, good for one sign-in within 10
 * minutes. Only a hash of each token is kept, and tokens are compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Options of `createSignInTokens`. */
export interface SignInTokenOptions {
  ttlMs?: number;
  now?: () => number;
}

/** Issues and redeems one-time tokens. */
export interface SignInTokens {
  /** A new token (base64url). */
  issue(): string;
  /** Whether the token is live; a live token is used up. */
  redeem(token: unknown): boolean;
}

const digest = (token: string) => createHash('sha256').update(token).digest();

/** Creates the token issuer of a dev server. */
export function createSignInTokens(options: SignInTokenOptions = {}): SignInTokens {
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  const live: { hash: Buffer; expires: number }[] = [];
  return {
    issue() {
      const token = randomBytes(32).toString('base64url');
      live.push({ hash: digest(token), expires: now() + ttlMs });
      return token;
    },
    redeem(token) {
      const time = now();
      for (let index = live.length - 1; index >= 0; index--) if (live[index]!.expires <= time) live.splice(index, 1);
      if (typeof token !== 'string' || token.length === 0 || token.length > 128) return false;
      const hash = digest(token);
      const index = live.findIndex((entry) => timingSafeEqual(entry.hash, hash));
      if (index === -1) return false;
      live.splice(index, 1);
      return true;
    },
  };
}
