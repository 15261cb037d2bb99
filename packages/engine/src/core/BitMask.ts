/** Bit helpers for slice masks (bit i of a `Uint8Array`, little-endian within each byte). */
export function getBit(mask: Uint8Array, i: number): boolean {
  return (mask[i >> 3]! & (1 << (i & 7))) !== 0;
}

export function setBit(mask: Uint8Array, i: number): void {
  mask[i >> 3]! |= 1 << (i & 7);
}

/** How many of the first `n` bits are set. */
export function countBits(mask: Uint8Array, n: number): number {
  let c = 0;
  for (let i = 0; i < n; i++) if ((mask[i >> 3]! & (1 << (i & 7))) !== 0) c++;
  return c;
}
