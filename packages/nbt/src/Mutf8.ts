/**
 * Java's modified UTF-8 (DataInput.readUTF), the string encoding of NBT: U+0000 as C0 80,
 * characters outside the BMP as two 3-byte surrogates. Written that way; read leniently as other
 * tools write it too (a raw 0 byte, 4-byte UTF-8 sequences); anything else malformed is an error.
 */

/** Decodes `len` bytes at `at`; returns the string or an error message. */
export function decodeMutf8(b: Uint8Array, at: number, len: number): string | { error: string } {
  const end = at + len;
  // ASCII fast path: most names and ids.
  let i = at;
  while (i < end && b[i]! < 0x80) i++;
  if (i === end) return latin1(b, at, end);
  const codes: number[] = [];
  for (let k = at; k < i; k++) codes.push(b[k]!);
  while (i < end) {
    const c = b[i]!;
    if (c < 0x80) {
      codes.push(c);
      i++;
    } else if ((c & 0xf8) === 0xf0) {
      if (i + 3 >= end || (b[i + 1]! & 0xc0) !== 0x80 || (b[i + 2]! & 0xc0) !== 0x80 || (b[i + 3]! & 0xc0) !== 0x80)
        return { error: `malformed UTF-8 at byte ${i - at}` };
      const cp = ((c & 0x07) << 18) | ((b[i + 1]! & 0x3f) << 12) | ((b[i + 2]! & 0x3f) << 6) | (b[i + 3]! & 0x3f);
      if (cp < 0x10000 || cp > 0x10ffff) return { error: `malformed UTF-8 at byte ${i - at}` };
      codes.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
      i += 4;
    } else if ((c & 0xe0) === 0xc0) {
      if (i + 1 >= end || (b[i + 1]! & 0xc0) !== 0x80) return { error: `malformed modified UTF-8 at byte ${i - at}` };
      codes.push(((c & 0x1f) << 6) | (b[i + 1]! & 0x3f));
      i += 2;
    } else if ((c & 0xf0) === 0xe0) {
      if (i + 2 >= end || (b[i + 1]! & 0xc0) !== 0x80 || (b[i + 2]! & 0xc0) !== 0x80) return { error: `malformed modified UTF-8 at byte ${i - at}` };
      codes.push(((c & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f));
      i += 3;
    } else return { error: `malformed modified UTF-8 at byte ${i - at}` };
  }
  let s = "";
  for (let k = 0; k < codes.length; k += 8192) s += String.fromCharCode(...codes.slice(k, k + 8192));
  return s;
}

function latin1(b: Uint8Array, at: number, end: number): string {
  // Short strings (keys, ids) are most of them: a plain loop beats a native call's overhead.
  if (end - at <= 32) {
    let s = "";
    for (let k = at; k < end; k++) s += String.fromCharCode(b[k]!);
    return s;
  }
  return Buffer.from(b.buffer, b.byteOffset + at, end - at).toString("latin1");
}

/** Encoded length of a string in modified UTF-8. */
export function mutf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c > 0 && c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return n;
}

/** Writes `s` at `at`; returns the end offset. */
export function encodeMutf8(s: string, out: Uint8Array, at: number): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0 && c < 0x80) out[at++] = c;
    else if (c < 0x800) {
      out[at++] = 0xc0 | (c >> 6);
      out[at++] = 0x80 | (c & 0x3f);
    } else {
      out[at++] = 0xe0 | (c >> 12);
      out[at++] = 0x80 | ((c >> 6) & 0x3f);
      out[at++] = 0x80 | (c & 0x3f);
    }
  }
  return at;
}
