/** Opaque page cursors: a versioned, base64url-wrapped position. */
export function encodeCursor(position: string): string {
  return Buffer.from(`v1:${position}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return text.startsWith('v1:') && text.length > 3 ? text.slice(3) : null;
}
