// Where bytes that should be UTF-8 are not: both front ends refuse such text by naming its bytes
// (the PG front end with PostgreSQL's 22021, HTTP with 400) instead of storing U+FFFD for them.
import { isUtf8 } from 'node:buffer';

/**
 * The first invalid sequence of `b` as PostgreSQL reports it (the bytes its first byte announces,
 * `0xe9 0x74 0xe9`), or null when `b` is UTF-8.
 */
export function badUtf8(b: Uint8Array): string | null {
  return firstBadUtf8(b)?.bytes ?? null;
}

/** badUtf8's answer and where in `b` those bytes start. */
export function firstBadUtf8(b: Uint8Array): { bytes: string; at: number } | null {
  if (isUtf8(b)) return null;
  for (let i = 0; i < b.length; ) {
    const c = b[i];
    const len = c < 0x80 ? 1 : (c & 0xe0) === 0xc0 ? 2 : (c & 0xf0) === 0xe0 ? 3 : (c & 0xf8) === 0xf0 ? 4 : 1;
    const seq = b.subarray(i, i + len);
    if (c >= 0x80 && (len === 1 || seq.length < len || !isUtf8(seq)))
      return { bytes: [...seq].map((x) => `0x${x.toString(16).padStart(2, '0')}`).join(' '), at: i };
    i += len;
  }
  return null;
}
