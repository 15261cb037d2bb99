import { decodeMutf8 } from "./Mutf8.js";
import { TAG, TAG_NAMES, type NbtCompound, type NbtValue, type TagId } from "./NbtValue.js";

/** A malformed NBT input: what and at which byte. */
export class NbtError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at byte ${offset}`);
    this.name = "NbtError";
  }
}

/** Fewest bytes one element of a list of this tag can take (a declared length is checked against it). */
const MIN_SIZE: readonly number[] = [0, 1, 2, 4, 8, 4, 8, 4, 2, 5, 1, 4, 4];

/** Minecraft's own nesting limit. */
export const MAX_NBT_DEPTH = 512;

/**
 * A forward cursor over uncompressed big-endian NBT: no tree is built for what the caller only
 * walks or skips (bulk arrays are views into the input), and small values are decoded on demand.
 * Every declared length is checked against the bytes left before anything is allocated, nesting is
 * bounded, so time and memory stay linear in the input whatever it claims. Throws `NbtError`.
 */
export class NbtReader {
  private at = 0;
  private readonly view: DataView;

  constructor(
    private readonly b: Uint8Array,
    private readonly maxDepth = MAX_NBT_DEPTH,
  ) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  get offset(): number {
    return this.at;
  }

  /** Moves to an offset seen before (a field recorded by `fields`). */
  seek(offset: number): void {
    if (offset < 0 || offset > this.b.length) throw new NbtError("seek outside the data", offset);
    this.at = offset;
  }

  get remaining(): number {
    return this.b.length - this.at;
  }

  private need(n: number, what: string): void {
    if (n > this.b.length - this.at) throw new NbtError(`${what} needs ${n} bytes, ${this.b.length - this.at} left`, this.at);
  }

  tagId(): TagId {
    this.need(1, "tag id");
    const t = this.b[this.at++]!;
    if (t > 12) throw new NbtError(`unknown tag id ${t}`, this.at - 1);
    return t as TagId;
  }

  i8(): number {
    this.need(1, "byte");
    return this.view.getInt8(this.at++);
  }

  i16(): number {
    this.need(2, "short");
    const v = this.view.getInt16(this.at);
    this.at += 2;
    return v;
  }

  i32(): number {
    this.need(4, "int");
    const v = this.view.getInt32(this.at);
    this.at += 4;
    return v;
  }

  i64(): bigint {
    this.need(8, "long");
    const v = this.view.getBigInt64(this.at);
    this.at += 8;
    return v;
  }

  f32(): number {
    this.need(4, "float");
    const v = this.view.getFloat32(this.at);
    this.at += 4;
    return v;
  }

  f64(): number {
    this.need(8, "double");
    const v = this.view.getFloat64(this.at);
    this.at += 8;
    return v;
  }

  string(): string {
    this.need(2, "string length");
    const len = this.view.getUint16(this.at);
    this.at += 2;
    this.need(len, "string");
    const s = decodeMutf8(this.b, this.at, len);
    if (typeof s !== "string") throw new NbtError(s.error, this.at);
    this.at += len;
    return s;
  }

  /** The root tag: its id (a compound for every format here) and name. */
  root(): { type: TagId; name: string } {
    const type = this.tagId();
    if (type === TAG.End) throw new NbtError("empty NBT (root is an end tag)", 0);
    return { type, name: this.string() };
  }

  /** A count of elements of `elemSize` bytes, checked against what is left. */
  private count(elemSize: number, what: string): number {
    const n = this.i32();
    if (n < 0) throw new NbtError(`${what} has negative length ${n}`, this.at - 4);
    if (n * elemSize > this.remaining) throw new NbtError(`${what} declares ${n} elements, more than the ${this.remaining} bytes left can hold`, this.at - 4);
    return n;
  }

  /** A byte array as a view into the input (no copy). */
  byteArray(): Uint8Array {
    const n = this.count(1, "byte array");
    const v = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }

  intArray(): Int32Array {
    const n = this.count(4, "int array");
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++, this.at += 4) out[i] = this.view.getInt32(this.at);
    return out;
  }

  longArray(): BigInt64Array {
    const n = this.count(8, "long array");
    const out = new BigInt64Array(n);
    for (let i = 0; i < n; i++, this.at += 8) out[i] = this.view.getBigInt64(this.at);
    return out;
  }

  /**
   * A long array as 32-bit words, least significant half of each long first: one bit stream in
   * which bit i of long k is bit 64k + i (how Minecraft and Litematica pack palette indices).
   */
  longArrayWords(): Uint32Array {
    const n = this.count(8, "long array");
    const out = new Uint32Array(n * 2);
    for (let i = 0; i < n; i++, this.at += 8) {
      out[2 * i + 1] = this.view.getUint32(this.at);
      out[2 * i] = this.view.getUint32(this.at + 4);
    }
    return out;
  }

  /** A list header: element tag and length (an end-tag list must be empty). */
  listHeader(): { elem: TagId; length: number } {
    const elem = this.tagId();
    const length = this.count(MIN_SIZE[elem]!, `list of ${TAG_NAMES[elem]}`);
    if (elem === TAG.End && length > 0) throw new NbtError(`list of end tags with length ${length}`, this.at - 4);
    return { elem, length };
  }

  /** Walks a compound: `visit` gets each entry's tag and name and must consume its value (read or skip). */
  compound(visit: (type: TagId, name: string) => void): void {
    for (;;) {
      const type = this.tagId();
      if (type === TAG.End) return;
      visit(type, this.string());
    }
  }

  /** Skips a value of `type` without decoding it. */
  skip(type: TagId, depth = 0): void {
    if (depth > this.maxDepth) throw new NbtError(`nesting deeper than ${this.maxDepth}`, this.at);
    switch (type) {
      case TAG.Byte:
      case TAG.Short:
      case TAG.Int:
      case TAG.Long:
      case TAG.Float:
      case TAG.Double:
        this.need(MIN_SIZE[type]!, TAG_NAMES[type]!);
        this.at += MIN_SIZE[type]!;
        return;
      case TAG.ByteArray:
      case TAG.IntArray:
      case TAG.LongArray: {
        // Not `this.at += this.count(…)`: the left side would be read before count() moves it.
        const size = type === TAG.ByteArray ? 1 : type === TAG.IntArray ? 4 : 8;
        const n = this.count(size, TAG_NAMES[type]!);
        this.at += n * size;
        return;
      }
      case TAG.String: {
        this.need(2, "string length");
        const len = this.view.getUint16(this.at);
        this.need(2 + len, "string");
        this.at += 2 + len;
        return;
      }
      case TAG.List: {
        const { elem, length } = this.listHeader();
        for (let i = 0; i < length; i++) this.skip(elem, depth + 1);
        return;
      }
      case TAG.Compound:
        this.compound((t) => this.skip(t, depth + 1));
        return;
      default:
        throw new NbtError(`unexpected tag ${type}`, this.at);
    }
  }

  /** Decodes a value of `type` (for small parts: block entities, entities, metadata). */
  value(type: TagId, depth = 0): NbtValue {
    if (depth > this.maxDepth) throw new NbtError(`nesting deeper than ${this.maxDepth}`, this.at);
    switch (type) {
      case TAG.Byte:
        return { t: TAG.Byte, v: this.i8() };
      case TAG.Short:
        return { t: TAG.Short, v: this.i16() };
      case TAG.Int:
        return { t: TAG.Int, v: this.i32() };
      case TAG.Long:
        return { t: TAG.Long, v: this.i64() };
      case TAG.Float:
        return { t: TAG.Float, v: this.f32() };
      case TAG.Double:
        return { t: TAG.Double, v: this.f64() };
      case TAG.ByteArray:
        return { t: TAG.ByteArray, v: new Uint8Array(this.byteArray()) };
      case TAG.String:
        return { t: TAG.String, v: this.string() };
      case TAG.IntArray:
        return { t: TAG.IntArray, v: this.intArray() };
      case TAG.LongArray:
        return { t: TAG.LongArray, v: this.longArray() };
      case TAG.List: {
        const { elem, length } = this.listHeader();
        const v: NbtValue[] = [];
        for (let i = 0; i < length; i++) v.push(this.value(elem, depth + 1));
        return { t: TAG.List, elem, v };
      }
      case TAG.Compound:
        return this.compoundValue(depth);
      default:
        throw new NbtError(`unexpected tag ${type}`, this.at);
    }
  }

  /** Decodes a compound (the reader stands after its header). A repeated key is an error. */
  compoundValue(depth = 0): NbtCompound {
    const v = new Map<string, NbtValue>();
    this.compound((t, name) => {
      const start = this.at;
      if (v.has(name)) throw new NbtError(`key ${JSON.stringify(name.slice(0, 64))} repeated in a compound`, start);
      v.set(name, this.value(t, depth + 1));
    });
    return { t: TAG.Compound, v };
  }
}
