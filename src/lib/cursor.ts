import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Opaque page cursors: a versioned, base64url-wrapped position. */
export function encodeCursor(position: string): string {
  return Buffer.from(`v1:${position}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return text.startsWith('v1:') && text.length > 3 ? text.slice(3) : null;
}

const SEALED_VERSION = 2;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Sealed cursors: the position encrypted and authenticated (AES-256-GCM) under a key derived from a
 * server secret for one purpose, bound to a context (the account), with a fresh IV each time. A
 * holder learns nothing from its value, not even whether two cursors name the same position, and
 * cannot make one. The first byte (2) tells them from `encodeCursor`'s (`v1:` in clear).
 */
export function cursorSealer(secret: string, purpose: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, '', `careers cursor: ${purpose}`, 32));
  return {
    seal(context: string, position: Buffer): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(position), cipher.final()]);
      return Buffer.concat([Buffer.of(SEALED_VERSION), iv, body, cipher.getAuthTag()]).toString('base64url');
    },
    /** The position sealed for `context`, or null for anything else (forged, altered, another's). */
    open(context: string, cursor: string): Buffer | null {
      if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
      const raw = Buffer.from(cursor, 'base64url');
      if (raw.length <= 1 + IV_BYTES + TAG_BYTES || raw[0] !== SEALED_VERSION) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(1, 1 + IV_BYTES));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        return Buffer.concat([
          decipher.update(raw.subarray(1 + IV_BYTES, raw.length - TAG_BYTES)),
          decipher.final(),
        ]);
      } catch {
        return null;
      }
    },
  };
}

export type CursorSealer = ReturnType<typeof cursorSealer>;
