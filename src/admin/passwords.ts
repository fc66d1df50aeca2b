/**
 * Password hashing with node:crypto's scrypt. A hash is stored as a self-describing string,
 * `scrypt$N=131072,r=8,p=1$<salt>$<key>` (salt and key in base64url), so the parameters can be
 * raised later: `verifyPassword` reads them from the string and says when a hash should be redone
 * with the current ones. An unknown account still costs one full hash (`burnPasswordCheck`), so
 * the time of an answer does not tell whether an email has an account.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's cost parameters. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** The parameters new hashes are made with (OWASP's scrypt minimum is N=2^17, r=8, p=1). */
export const currentScryptParams: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };

const saltBytes = 16;
const keyBytes = 64;
const prefix = 'scrypt';

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // scrypt needs 128 × N × r bytes; the default cap (32 MB) is below that for N=2^17.
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    maxmem: 256 * params.N * params.r + 1024 * 1024,
  };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, keyBytes, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Hashes a password into its self-describing string. */
export async function hashPassword(password: string, params: ScryptParams = currentScryptParams): Promise<string> {
  const salt = randomBytes(saltBytes);
  const key = await derive(password, salt, params);
  return `${prefix}$N=${params.N},r=${params.r},p=${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** The parts of a stored hash, or undefined when the string is not one. */
export function parsePasswordHash(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | undefined {
  const match = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!match) return undefined;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!Number.isSafeInteger(N) || N < 2 || (N & (N - 1)) !== 0 || r < 1 || p < 1 || N > 2 ** 24 || r > 64 || p > 64)
    return undefined;
  return { params: { N, r, p }, salt: Buffer.from(match[4]!, 'base64url'), key: Buffer.from(match[5]!, 'base64url') };
}

/** Whether a hash was made with weaker parameters than `target` and should be made again. */
export function needsRehash(stored: string, target: ScryptParams = currentScryptParams): boolean {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return true;
  const { N, r, p } = parsed.params;
  return N < target.N || r < target.r || p < target.p;
}

/** Whether `password` matches the stored hash (compared in constant time); false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed || parsed.key.length === 0) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

const dummyHashes = new Map<string, Promise<string>>();

/** Spends the time of one password check against a hash no password matches (for unknown accounts). */
export async function burnPasswordCheck(password: string, params: ScryptParams = currentScryptParams): Promise<void> {
  const id = `${params.N},${params.r},${params.p}`;
  let dummy = dummyHashes.get(id);
  if (!dummy) dummyHashes.set(id, (dummy = hashPassword(randomBytes(32).toString('base64url'), params)));
  await verifyPassword(password, await dummy);
}
