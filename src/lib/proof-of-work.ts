import { createHash } from 'node:crypto';

/** A solution is a decimal counter; anything longer is refused before hashing. */
const SOLUTION = /^\d{1,12}$/;

function leadingZeroBits(digest: Buffer): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/**
 * Whether `solution` solves the challenge: SHA-256 of `challenge:solution` starts with `bits` zero
 * bits. Checking costs one hash; finding one costs about 2^bits hashes (the apply page's script).
 */
export function proofOfWorkValid(challenge: string, solution: unknown, bits: number): boolean {
  if (typeof solution !== 'string' || !SOLUTION.test(solution)) return false;
  const digest = createHash('sha256').update(`${challenge}:${solution}`).digest();
  return leadingZeroBits(digest) >= bits;
}

/** Finds a solution (tests and tools; browsers run the page's script). */
export function solveProofOfWork(challenge: string, bits: number): string {
  for (let n = 0; ; n += 1) if (proofOfWorkValid(challenge, String(n), bits)) return String(n);
}
