/**
 * Drops the palette entries no index of `indices` uses (and entry 0 too unless `keepFirst`),
 * renumbering `indices` in place; returns the entries kept, in their order.
 */
export function compactPalette(palette: readonly string[], indices: Uint16Array, keepFirst: boolean): string[] {
  const used = new Uint8Array(palette.length);
  if (keepFirst) used[0] = 1;
  for (const v of indices) used[v] = 1;
  const remap = new Uint16Array(palette.length);
  const kept: string[] = [];
  palette.forEach((s, i) => {
    if (used[i] === 1) {
      remap[i] = kept.length;
      kept.push(s);
    }
  });
  for (let i = 0; i < indices.length; i++) indices[i] = remap[indices[i]!]!;
  return kept;
}
