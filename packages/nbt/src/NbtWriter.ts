import { encodeMutf8, mutf8Length } from "./Mutf8.js";
import { TAG, type NbtCompound, type NbtValue } from "./NbtValue.js";

export interface EncodeOptions {
  /** Compound keys sorted (UTF-16 code unit order, as Java's String.compareTo) at every level. */
  readonly canonical?: boolean;
}

const FIXED: Readonly<Record<number, number>> = { [TAG.Byte]: 1, [TAG.Short]: 2, [TAG.Int]: 4, [TAG.Long]: 8, [TAG.Float]: 4, [TAG.Double]: 8 };

function keysOf(c: NbtCompound, canonical: boolean): string[] {
  const keys = [...c.v.keys()];
  return canonical ? keys.sort() : keys;
}

function sizeOf(v: NbtValue, canonical: boolean): number {
  switch (v.t) {
    case TAG.String:
      return 2 + mutf8Length(v.v);
    case TAG.ByteArray:
      return 4 + v.v.length;
    case TAG.IntArray:
      return 4 + 4 * v.v.length;
    case TAG.LongArray:
      return 4 + 8 * v.v.length;
    case TAG.List:
      return 5 + v.v.reduce((n, e) => n + sizeOf(e, canonical), 0);
    case TAG.Compound: {
      let n = 1;
      for (const k of keysOf(v, canonical)) n += 3 + mutf8Length(k) + sizeOf(v.v.get(k)!, canonical);
      return n;
    }
    default:
      return FIXED[v.t]!;
  }
}

class Out {
  at = 0;
  readonly view: DataView;
  constructor(readonly b: Uint8Array) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  string(s: string): void {
    const n = mutf8Length(s);
    if (n > 0xffff) throw new RangeError(`NBT string of ${n} bytes (at most 65535)`);
    this.view.setUint16(this.at, n);
    this.at = encodeMutf8(s, this.b, this.at + 2);
  }
  value(v: NbtValue, canonical: boolean): void {
    const d = this.view;
    switch (v.t) {
      case TAG.Byte:
        (d.setInt8(this.at, v.v), (this.at += 1));
        return;
      case TAG.Short:
        (d.setInt16(this.at, v.v), (this.at += 2));
        return;
      case TAG.Int:
        (d.setInt32(this.at, v.v), (this.at += 4));
        return;
      case TAG.Long:
        (d.setBigInt64(this.at, v.v), (this.at += 8));
        return;
      case TAG.Float:
        (d.setFloat32(this.at, v.v), (this.at += 4));
        return;
      case TAG.Double:
        (d.setFloat64(this.at, v.v), (this.at += 8));
        return;
      case TAG.String:
        this.string(v.v);
        return;
      case TAG.ByteArray:
        d.setInt32(this.at, v.v.length);
        this.b.set(v.v, this.at + 4);
        this.at += 4 + v.v.length;
        return;
      case TAG.IntArray:
        (d.setInt32(this.at, v.v.length), (this.at += 4));
        for (const x of v.v) (d.setInt32(this.at, x), (this.at += 4));
        return;
      case TAG.LongArray:
        (d.setInt32(this.at, v.v.length), (this.at += 4));
        for (const x of v.v) (d.setBigInt64(this.at, x), (this.at += 8));
        return;
      case TAG.List:
        // An empty list is written as a list of end tags, as the game does.
        this.b[this.at] = v.v.length === 0 ? TAG.End : v.elem;
        d.setInt32(this.at + 1, v.v.length);
        this.at += 5;
        for (const e of v.v) {
          if (e.t !== v.elem) throw new TypeError(`NBT list of tag ${v.elem} holds a tag ${e.t}`);
          this.value(e, canonical);
        }
        return;
      case TAG.Compound:
        for (const k of keysOf(v, canonical)) {
          const e = v.v.get(k)!;
          this.b[this.at++] = e.t;
          this.string(k);
          this.value(e, canonical);
        }
        this.b[this.at++] = TAG.End;
        return;
    }
  }
}

/** A named root compound as uncompressed big-endian NBT. */
export function encodeNbt(name: string, root: NbtCompound, options: EncodeOptions = {}): Buffer {
  const canonical = options.canonical === true;
  const out = new Out(Buffer.alloc(3 + mutf8Length(name) + sizeOf(root, canonical)));
  out.b[out.at++] = TAG.Compound;
  out.string(name);
  out.value(root, canonical);
  return out.b as Buffer;
}

/**
 * The canonical bytes of a block entity's (or any) compound: unnamed root, keys sorted at every
 * level, so equal data has equal bytes and equal SHA-256 digests whatever wrote it first.
 */
export function canonicalNbt(c: NbtCompound): Buffer {
  return encodeNbt("", c, { canonical: true });
}
