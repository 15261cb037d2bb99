import { constants, gunzipSync } from "node:zlib";
import { TAG } from "@mcb/nbt";

/** Compressed bytes inflated to look for the size (at most ~1,000× as much NBT comes out). */
const PREFIX_BYTES = 16 * 1024;

/**
 * A schematic's size from the start of its file, before anything large is decompressed or
 * allocated: the first kilobytes are inflated (no more) and the NBT walked until Sponge's
 * Width/Height/Length (top level, or inside v3's "Schematic"), Litematica's
 * Metadata.EnclosingSize or a structure's `size` turn up. Null when they do not come before the
 * prefix ends (then the full read decides, within its own limits).
 */
export function probeSize(file: Uint8Array): { width: number; height: number; length: number } | null {
  let data: Uint8Array;
  if (file.length >= 2 && file[0] === 0x1f && file[1] === 0x8b) {
    try {
      data = gunzipSync(file.subarray(0, PREFIX_BYTES), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: 64 * 1024 * 1024 });
    } catch {
      return null;
    }
  } else data = file.subarray(0, 1024 * 1024);
  const w = new PrefixWalker(data);
  try {
    return w.walk();
  } catch (e) {
    if (e instanceof PrefixEnd) return null;
    throw e;
  }
}

class PrefixEnd extends Error {}

/** Reads NBT from a prefix; running past its end throws PrefixEnd. */
class PrefixWalker {
  private at = 0;
  private readonly view: DataView;
  private readonly found: Record<string, number> = {};

  constructor(private readonly b: Uint8Array) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  walk(): { width: number; height: number; length: number } | null {
    if (this.u8() !== TAG.Compound) return null;
    this.string();
    this.compound("");
    return this.result();
  }

  private result(): { width: number; height: number; length: number } | null {
    const f = this.found;
    for (const [w, h, l] of [
      ["Width", "Height", "Length"],
      ["x", "y", "z"],
      ["size0", "size1", "size2"],
    ] as const)
      if (f[w] !== undefined && f[h] !== undefined && f[l] !== undefined) return { width: f[w]!, height: f[h]!, length: f[l]! };
    return null;
  }

  private need(n: number): void {
    if (this.at + n > this.b.length) throw new PrefixEnd();
  }
  private u8(): number {
    this.need(1);
    return this.b[this.at++]!;
  }
  private i16(): number {
    this.need(2);
    const v = this.view.getInt16(this.at);
    this.at += 2;
    return v;
  }
  private i32(): number {
    this.need(4);
    const v = this.view.getInt32(this.at);
    this.at += 4;
    return v;
  }
  private skip(n: number): void {
    this.need(n);
    this.at += n;
  }
  private string(): string {
    this.need(2);
    const n = this.view.getUint16(this.at);
    this.at += 2;
    this.need(n);
    const s = Buffer.from(this.b.subarray(this.at, this.at + n)).toString("latin1");
    this.at += n;
    return s;
  }

  /** A compound's entries; `path` is where it sits ("" for the root). Stops early once the size is known. */
  private compound(path: string): void {
    for (;;) {
      const type = this.u8();
      if (type === TAG.End) return;
      const name = this.string();
      const here = path === "" ? name : `${path}.${name}`;
      if ((type === TAG.Short || type === TAG.Int) && /^(Schematic\.)?(Width|Height|Length)$/.test(here))
        this.found[name] = type === TAG.Short ? this.i16() & 0xffff : this.i32();
      else if (type === TAG.Int && /^Metadata\.EnclosingSize\.[xyz]$/.test(here)) this.found[name] = this.i32();
      else if (type === TAG.List && here === "size") this.sizeList();
      else this.value(type, here);
      if (this.result() !== null) return;
    }
  }

  private sizeList(): void {
    const t = this.u8();
    const n = this.i32();
    if (t !== TAG.Int || n !== 3) return this.listBody(t, n, "size");
    for (let i = 0; i < 3; i++) this.found[`size${i}`] = this.i32();
  }

  private listBody(t: number, n: number, path: string): void {
    for (let i = 0; i < n; i++) this.value(t, path);
  }

  private value(type: number, path: string): void {
    switch (type) {
      case TAG.Byte:
        return this.skip(1);
      case TAG.Short:
        return this.skip(2);
      case TAG.Int:
      case TAG.Float:
        return this.skip(4);
      case TAG.Long:
      case TAG.Double:
        return this.skip(8);
      case TAG.ByteArray:
        return this.skip(Math.max(0, this.i32()));
      case TAG.IntArray:
        return this.skip(4 * Math.max(0, this.i32()));
      case TAG.LongArray:
        return this.skip(8 * Math.max(0, this.i32()));
      case TAG.String:
        return void this.string();
      case TAG.List: {
        const t = this.u8();
        return this.listBody(t, Math.max(0, this.i32()), path);
      }
      case TAG.Compound:
        return this.compound(path);
      default:
        throw new PrefixEnd(); // not NBT as we know it: let the full read say so
    }
  }
}
