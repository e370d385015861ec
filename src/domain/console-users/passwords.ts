import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Console passwords, hashed with scrypt (memory-hard, in node:crypto). scrypt runs on libuv's
 * thread pool, never on the event loop. Stored as `scrypt$N$r$p$salt$hash` (base64url), so the
 * cost can be raised later and older hashes still verify.
 */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
// 128 · N · r bytes is exactly 32 MiB, Node's default ceiling: leave room above it.
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P, maxmem: MAX_MEMORY });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

// A hash no password matches: an unknown email costs the same KDF run as a wrong password.
const DUMMY = `scrypt$${N}$${R}$${P}$${randomBytes(16).toString('base64url')}$${randomBytes(KEY_BYTES).toString('base64url')}`;

/** Whether `password` matches `stored`; with no stored hash it runs the KDF anyway and answers false. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? DUMMY).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (n > 2 ** 20 || r > 32 || p > 4) return false;
  const expected = Buffer.from(parts[5]!, 'base64url');
  const key = await derive(password, Buffer.from(parts[4]!, 'base64url'), {
    N: n,
    r,
    p,
    maxmem: Math.max(MAX_MEMORY, 256 * n * r),
  });
  return stored !== null && key.length === expected.length && timingSafeEqual(key, expected);
}
