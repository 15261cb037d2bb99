import { once } from "node:events";
import { closeSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { constants, createGzip } from "node:zlib";
import { isAir } from "@mcb/blocks";
import { TAG, encodeNbt, nbt, type NbtCompound, type NbtValue } from "@mcb/nbt";
import { spongeBlockEntity, spongeHead, type SpongeHeader } from "./SchematicWrite.js";

/** What a finished stream wrote: the counts an asset reports. */
export interface StreamTotals {
  readonly positions: number;
  /** Non-air positions. */
  readonly blockCount: number;
  readonly paletteSize: number;
  readonly blockEntities: number;
}

const SPILL_BYTES = 1 << 20;
/** Gzip header OS byte: 255 ("unknown") so the bytes do not depend on the platform (as `writeSchematic`). */
const OS_UNKNOWN = 0xff;

/** Named tags as they sit inside a compound (type, name, payload), without the compound's own framing. */
function namedTags(entries: [string, NbtValue][]): Buffer {
  return encodeNbt("", nbt.compound(entries)).subarray(3, -1);
}

/** A compound's payload as a list element (its tags and the end byte). */
function elementPayload(c: NbtCompound): Buffer {
  return encodeNbt("", c).subarray(3);
}

/** An append-only scratch file, buffered. */
class Spill {
  private readonly fd: number;
  private buf = Buffer.allocUnsafe(SPILL_BYTES);
  private used = 0;
  bytes = 0;
  constructor(readonly path: string) {
    this.fd = openSync(path, "wx", 0o600);
  }
  put(b: Uint8Array): void {
    if (this.used + b.length > this.buf.length) this.drain();
    if (b.length > this.buf.length) {
      writeSync(this.fd, b);
    } else {
      this.buf.set(b, this.used);
      this.used += b.length;
    }
    this.bytes += b.length;
  }
  byte(v: number): void {
    if (this.used === this.buf.length) this.drain();
    this.buf[this.used++] = v;
    this.bytes++;
  }
  drain(): void {
    if (this.used > 0) writeSync(this.fd, this.buf, 0, this.used);
    this.used = 0;
  }
  /** Its bytes, in order, a megabyte at a time. */
  async copyTo(push: (b: Buffer) => Promise<void>): Promise<void> {
    this.drain();
    const fd = openSync(this.path, "r");
    try {
      for (let at = 0; at < this.bytes;) {
        const chunk = Buffer.allocUnsafe(Math.min(SPILL_BYTES, this.bytes - at));
        const n = readSync(fd, chunk, 0, chunk.length, at);
        at += n;
        await push(chunk.subarray(0, n));
      }
    } finally {
      closeSync(fd);
    }
  }
  close(): void {
    closeSync(this.fd);
    rmSync(this.path, { force: true });
  }
}

/**
 * A Sponge schematic (v3, and v2 when asked) written as its blocks arrive, in y, z, x order
 * (x fastest), with memory bounded by the palette: the varint block data and the block entities go
 * to scratch files beside the output, and `finish` streams header, palette, data and block
 * entities through gzip. The bytes equal `writeSchematic`'s for the same content (palette by first
 * use, the same field order, block entities in (y, z, x) order, gzip mtime 0 and OS byte 255).
 * Throws only on a broken invariant (blocks past the declared size); the caller enforces limits.
 */
export class SpongeStream {
  private readonly palette = new Map<string, number>();
  private readonly data: Spill;
  private readonly v3Entities: Spill;
  private readonly v2Entities: Spill | null;
  private positions = 0;
  private nonAir = 0;
  private entities = 0;

  constructor(
    private readonly header: SpongeHeader,
    /** Scratch files start with this path (a hidden name beside the output, removed by `finish`/`abort`). */
    scratch: string,
    withV2: boolean,
  ) {
    for (const d of [header.width, header.height, header.length])
      if (!Number.isInteger(d) || d < 1 || d > 0xffff) throw new Error(`invariant: schematic dimension ${d}`);
    this.data = new Spill(`${scratch}.data`);
    this.v3Entities = new Spill(`${scratch}.be3`);
    this.v2Entities = withV2 ? new Spill(`${scratch}.be2`) : null;
  }

  get totals(): StreamTotals {
    return { positions: this.positions, blockCount: this.nonAir, paletteSize: this.palette.size, blockEntities: this.entities };
  }

  /** The next positions' states: `states[i]` indexes `palette` (a slab's own palette). */
  blocks(palette: readonly string[], states: Uint32Array | Uint16Array | Uint8Array): void {
    const total = this.header.width * this.header.height * this.header.length;
    if (this.positions + states.length > total) throw new Error("invariant: more blocks than the schematic's size");
    const map = new Int32Array(palette.length).fill(-1);
    const air = palette.map(isAir);
    for (let i = 0; i < states.length; i++) {
      const p = states[i]!;
      let v = map[p]!;
      if (v < 0) {
        const s = palette[p]!;
        let g = this.palette.get(s);
        if (g === undefined) this.palette.set(s, (g = this.palette.size));
        v = map[p] = g;
      }
      if (!air[p]) this.nonAir++;
      while (v >= 0x80) {
        this.data.byte((v & 0x7f) | 0x80);
        v >>>= 7;
      }
      this.data.byte(v);
    }
    this.positions += states.length;
  }

  /** A block entity at a local position (given in y, z, x order), its data canonical NBT without position. */
  blockEntity(x: number, y: number, z: number, id: string, data: Uint8Array): void {
    const be = { x, y, z, id, data };
    this.v3Entities.put(elementPayload(spongeBlockEntity(be, 3)));
    if (this.v2Entities !== null) this.v2Entities.put(elementPayload(spongeBlockEntity(be, 2)));
    this.entities++;
  }

  /** Writes the v3 file to `v3Path` (and the v2 one to `v2Path` when asked); returns their sizes. Removes the scratch files. */
  async finish(v3Path: string, v2Path?: string): Promise<{ readonly v3Bytes: number; readonly v2Bytes?: number }> {
    try {
      if (this.positions !== this.header.width * this.header.height * this.header.length) throw new Error("invariant: fewer blocks than the schematic's size");
      const v3Bytes = await this.write(v3Path, 3);
      const v2Bytes = v2Path === undefined ? undefined : await this.write(v2Path, 2);
      return v2Bytes === undefined ? { v3Bytes } : { v3Bytes, v2Bytes };
    } finally {
      this.abort();
    }
  }

  /** Removes the scratch files (an export that stopped). */
  abort(): void {
    for (const s of [this.data, this.v3Entities, this.v2Entities]) {
      try {
        s?.close();
      } catch {
        // already closed
      }
    }
  }

  private async write(path: string, version: 2 | 3): Promise<number> {
    const h = this.header;
    const fd = openSync(path, "wx", 0o644);
    let bytes = 0;
    let first = true;
    const gz = createGzip({ strategy: constants.Z_RLE });
    gz.on("data", (chunk: Buffer) => {
      if (first) {
        chunk[9] = OS_UNKNOWN;
        first = false;
      }
      writeSync(fd, chunk);
      bytes += chunk.length;
    });
    const ended = once(gz, "end");
    const push = async (b: Buffer): Promise<void> => {
      if (!gz.write(b)) await once(gz, "drain");
    };
    try {
      const palette = nbt.compound([...this.palette].map(([state, i]) => [state, nbt.int(i)] as [string, NbtValue]));
      const arrayHead = (key: string, length: number): Buffer =>
        Buffer.concat([namedTags([[key, nbt.byteArray(new Uint8Array(0))]]).subarray(0, -4), int32(length)]);
      const listHead = (key: string): Buffer => {
        const head = namedTags([[key, nbt.list(TAG.Compound, [])]]).subarray(0, -5);
        const tail = Buffer.alloc(5);
        tail[0] = this.entities === 0 ? TAG.End : TAG.Compound;
        tail.writeInt32BE(this.entities, 1);
        return Buffer.concat([head, tail]);
      };
      if (version === 3) {
        await push(Buffer.from([TAG.Compound, 0, 0, TAG.Compound, 0, 9, ...Buffer.from("Schematic")]));
        await push(namedTags(spongeHead(h, 3)));
        await push(Buffer.from([TAG.Compound, 0, 6, ...Buffer.from("Blocks")]));
        await push(namedTags([["Palette", palette]]));
        await push(arrayHead("Data", this.data.bytes));
        await this.data.copyTo(push);
        await push(listHead("BlockEntities"));
        await this.v3Entities.copyTo(push);
        await push(Buffer.from([TAG.End, TAG.End, TAG.End]));
      } else {
        await push(Buffer.from([TAG.Compound, 0, 9, ...Buffer.from("Schematic")]));
        await push(namedTags([...spongeHead(h, 2), ["PaletteMax", nbt.int(this.palette.size)], ["Palette", palette]]));
        await push(arrayHead("BlockData", this.data.bytes));
        await this.data.copyTo(push);
        await push(listHead("BlockEntities"));
        await this.v2Entities!.copyTo(push);
        await push(Buffer.from([TAG.End]));
      }
      gz.end();
      await ended;
    } finally {
      closeSync(fd);
    }
    return bytes;
  }
}

function int32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(v);
  return b;
}
