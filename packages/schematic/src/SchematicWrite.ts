import { constants, gzipSync } from "node:zlib";
import { writeNbt, type NbtTag } from "./NbtCodec.js";
import { firstUseOrder, volumeOf, type Schematic } from "./Schematic.js";
import { encodeVarints } from "./Varint.js";

/** Gzip header OS byte: 255 ("unknown") so the bytes do not depend on the writing platform. */
const OS_UNKNOWN = 0xff;

/**
 * Writes a Sponge v2 schematic. Deterministic: the same content gives the same bytes (canonical
 * palette order, fixed field order, gzip mtime 0 and OS byte 255). `Offset` and WorldEdit's
 * `Metadata.WEOffset*` both carry the paste offset, so WorldEdit pastes it at the same place.
 * Throws only on a broken invariant (a block index outside the palette, dimensions over 65535).
 */
export function writeSchematic(s: Schematic): Buffer {
  for (const d of [s.width, s.height, s.length]) if (!Number.isInteger(d) || d < 1 || d > 0xffff) throw new Error(`invariant: schematic dimension ${d}`);
  if (s.blocks.length !== volumeOf(s)) throw new Error("invariant: schematic blocks do not match its dimensions");
  for (let i = 0; i < s.blocks.length; i++) if (s.blocks[i]! >= s.palette.length) throw new Error("invariant: schematic block index outside its palette");
  const order = firstUseOrder(s);
  const palette: Record<string, NbtTag> = {};
  order.palette.forEach((state, i) => (palette[state] = { type: "int", value: i }));
  const metadata: Record<string, NbtTag> = {};
  if (s.name !== undefined) metadata["Name"] = { type: "string", value: s.name };
  metadata["WEOffsetX"] = { type: "int", value: s.offset.x };
  metadata["WEOffsetY"] = { type: "int", value: s.offset.y };
  metadata["WEOffsetZ"] = { type: "int", value: s.offset.z };
  const nbt = writeNbt({
    type: "compound",
    name: "Schematic",
    value: {
      Version: { type: "int", value: 2 },
      DataVersion: { type: "int", value: s.dataVersion },
      Width: { type: "short", value: signedShort(s.width) },
      Height: { type: "short", value: signedShort(s.height) },
      Length: { type: "short", value: signedShort(s.length) },
      Offset: { type: "intArray", value: [s.offset.x, s.offset.y, s.offset.z] },
      Metadata: { type: "compound", value: metadata },
      PaletteMax: { type: "int", value: order.palette.length },
      Palette: { type: "compound", value: palette },
      BlockData: { type: "byteArray", value: encodeVarints(s.blocks, order.remap) },
    },
  });
  // Run-length deflate: voxel data is long runs; 6–7× faster than the default strategy for ~10%
  // more bytes (65.9 → 73.0 KB on the 1M-block benchmark landscape). Any gzip reader decodes it.
  const out = gzipSync(nbt, { strategy: constants.Z_RLE });
  out[9] = OS_UNKNOWN;
  return out;
}

function signedShort(v: number): number {
  return v > 0x7fff ? v - 0x10000 : v;
}
