import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readFileSync, readSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { constants, deflateSync, gunzipSync, gzipSync, inflateSync } from "node:zlib";
import { atomicWriteFile } from "@mcb/adapter-kit";
import { Lz4Error, lz4BlockDecompress, lz4BlockStore } from "./Lz4Block.js";
import { SaveError } from "./SaveError.js";

export const SECTOR = 4096;
const HEADER_BYTES = 2 * SECTOR;
const MAX_SECTORS_INLINE = 255;
/** Largest uncompressed chunk we decode (the game's own NBT quota is 2 MiB per chunk; 64 MiB leaves room for odd saves). */
export const MAX_CHUNK_BYTES = 64 << 20;

/** Chunk compressions (the byte after the length; +128: the payload is in `c.X.Z.mcc`). */
export const COMPRESSION = { gzip: 1, zlib: 2, none: 3, lz4: 4 } as const;
export type Compression = (typeof COMPRESSION)[keyof typeof COMPRESSION];

export interface StoredChunk {
  /** Uncompressed NBT. */
  readonly nbt: Uint8Array;
  readonly compression: Compression;
}

export interface ChunkWrite {
  /** Chunk coordinates (absolute). */
  readonly x: number;
  readonly z: number;
  readonly nbt: Uint8Array;
  readonly compression: Compression;
}

/** A chunk a region file cannot serve (the game could not read it either), and why. */
export interface RegionDamage {
  /** Chunk coordinates (absolute). */
  readonly chunk: { readonly x: number; readonly z: number };
  readonly why: string;
}

function compress(nbt: Uint8Array, c: Compression): Uint8Array {
  switch (c) {
    case COMPRESSION.gzip:
      return gzipSync(nbt);
    case COMPRESSION.zlib:
      return deflateSync(nbt, { level: constants.Z_DEFAULT_COMPRESSION });
    case COMPRESSION.none:
      return nbt;
    case COMPRESSION.lz4:
      return lz4BlockStore(nbt);
  }
}

function decompress(data: Uint8Array, c: number): Uint8Array {
  switch (c) {
    case COMPRESSION.gzip:
      return gunzipSync(data, { maxOutputLength: MAX_CHUNK_BYTES });
    case COMPRESSION.zlib:
      return inflateSync(data, { maxOutputLength: MAX_CHUNK_BYTES });
    case COMPRESSION.none:
      return data;
    case COMPRESSION.lz4:
      return lz4BlockDecompress(data, MAX_CHUNK_BYTES);
    default:
      throw new Error(`unknown compression id ${c}`);
  }
}

function fsyncFd(fd: number): void {
  fsyncSync(fd);
}

/**
 * One region file `r.RX.RZ.mca`: 32 × 32 chunks. The whole file is checked as the game's reader
 * would meet it: the 8 KiB header when it is opened (an entry pointing into the header, past the
 * end of the file, with no sectors, or over another chunk's sectors) and every chunk's head before
 * the first write or health question (its data cut short by the end of the file, a length of 0 or
 * past its sectors, an unknown compression, a missing `.mcc`; a read checks its own chunk). A damaged chunk is unreadable (`corrupt_chunk`, naming it) and
 * the region unwritable (`corrupt_region`, naming every damaged chunk): the game would drop such a
 * chunk and generate it again, so mcb writes nothing there until it is repaired. Other chunks read
 * as usual. Writes are crash-safe: new data goes into sectors no header entry covers (even where
 * an entry's sectors run past the end of the file, as the game's own allocator keeps them), is
 * fsynced, and only then is the header changed and fsynced, so a kill at any moment leaves every
 * chunk old or new (a write is cut, if at all, between 512-byte disk sectors or pages, never inside
 * a 4-byte header entry). Chunks over 255 sectors go to an external `c.X.Z.mcc` file (replaced
 * atomically), as the game does.
 */
export class RegionFile {
  private readonly offsets = new Uint32Array(1024);
  private readonly stamps = new Uint32Array(1024);
  /** Damaged chunks by index: why each cannot be read (the chunks' heads are checked on first need). */
  private readonly damage = new Map<number, string>();
  private headsChecked = false;
  private fd: number;
  private fileBytes: number;

  protected constructor(
    readonly path: string,
    readonly rx: number,
    readonly rz: number,
    fd: number,
  ) {
    this.fd = fd;
    const size = fstatSync(fd).size;
    this.fileBytes = size;
    if (size === 0) return; // servers leave empty region files: no chunks
    if (size < HEADER_BYTES) {
      closeSync(fd);
      throw new SaveError("corrupt_region", `${path}: ${size} bytes, shorter than the 8 KiB header; mcb reads and writes nothing in it (repair or remove it)`, {
        file: path,
      });
    }
    const head = Buffer.alloc(HEADER_BYTES);
    readSync(fd, head, 0, HEADER_BYTES, 0);
    for (let i = 0; i < 1024; i++) {
      this.offsets[i] = head.readUInt32BE(i * 4);
      this.stamps[i] = head.readUInt32BE(SECTOR + i * 4);
    }
    this.checkHeader();
  }

  /**
   * Opens (or, with `create`, creates) a region file; null when it does not exist and `create` is
   * false. `readOnly` opens the file for reading only (a save mcb never writes): a write then fails.
   */
  static open(path: string, rx: number, rz: number, create: boolean, readOnly = false): RegionFile | null {
    if (!existsSync(path)) {
      if (!create) return null;
      writeFileSync(path, new Uint8Array(0));
    }
    return new RegionFile(path, rx, rz, openSync(path, readOnly && !create ? "r" : "r+"));
  }

  /** Every write to the file goes through here (data sectors, then the header). */
  protected put(bytes: Uint8Array, position: number): void {
    writeSync(this.fd, bytes, 0, bytes.length, position);
  }

  /**
   * The sectors new data may not use: the header and every sector a header entry covers, those
   * past the end of the file included (a chunk whose last sectors the file does not hold yet still
   * owns them). Returns the map and the first sector past all of them (where appending starts).
   */
  protected takenSectors(): { used: Uint8Array; end: number } {
    let end = Math.max(2, Math.ceil(this.fileBytes / SECTOR));
    for (const e of this.offsets) if (e !== 0) end = Math.max(end, (e >>> 8) + (e & 255));
    const used = new Uint8Array(end);
    used[0] = used[1] = 1;
    for (const e of this.offsets) if (e !== 0) used.fill(1, e >>> 8, (e >>> 8) + (e & 255));
    return { used, end };
  }

  /**
   * Where a chunk of `sectors` sectors goes: first fit among sectors nobody points to (`used`; the
   * old sectors of a rewritten chunk stay taken until the header no longer lists them), else at the
   * end. Marks what it takes; returns the start and the new end of the file.
   */
  protected place(sectors: number, used: Uint8Array, end: number, _index: number): { start: number; end: number } {
    for (let s = 2, run = 0; s < used.length; s++) {
      run = used[s] === 0 ? run + 1 : 0;
      if (run === sectors) {
        used.fill(1, s - sectors + 1, s + 1);
        return { start: s - sectors + 1, end };
      }
    }
    return { start: end, end: end + sectors };
  }

  /** The header entry of a chunk index (sector offset << 8 | count), for subclasses. */
  protected entry(index: number): number {
    return this.offsets[index]!;
  }

  private chunkOf(index: number): { x: number; z: number } {
    return { x: this.rx * 32 + (index & 31), z: this.rz * 32 + (index >> 5) };
  }

  private damaged_(index: number, why: string): void {
    if (!this.damage.has(index)) this.damage.set(index, why);
  }

  /** The header's entries (the game's checks, plus overlaps, which the game would corrupt further). */
  private checkHeader(): void {
    const fileSectors = Math.ceil(this.fileBytes / SECTOR);
    const owner = new Map<number, number>();
    for (let i = 0; i < 1024; i++) {
      const e = this.offsets[i]!;
      if (e === 0) continue;
      const start = e >>> 8,
        count = e & 255;
      if (start < 2) this.damaged_(i, `sector ${start} overlaps the header`);
      else if (count === 0) this.damaged_(i, "zero sectors");
      else if (start >= fileSectors) this.damaged_(i, `sector ${start} is past the end of the file (${fileSectors} sectors)`);
      else {
        for (let s = start; s < start + count; s++) {
          const o = owner.get(s);
          if (o !== undefined) {
            const other = this.chunkOf(o),
              self = this.chunkOf(i);
            this.damaged_(i, `its sectors overlap chunk ${other.x},${other.z}'s`);
            this.damaged_(o, `its sectors overlap chunk ${self.x},${self.z}'s`);
            break;
          }
          owner.set(s, i);
        }
      }
    }
  }

  /** Every listed chunk's head (length, compression) against its sectors and the file's end (once). */
  private checkChunks(): void {
    if (this.headsChecked) return;
    this.headsChecked = true;
    const head = Buffer.alloc(5);
    for (let i = 0; i < 1024; i++) {
      const e = this.offsets[i]!;
      if (e === 0 || this.damage.has(i)) continue;
      const why = this.headProblem(i, e, head);
      if (why !== null) this.damaged_(i, why);
    }
  }

  /** What is wrong with one chunk's head, or null (the data itself is decoded only when read). */
  private headProblem(index: number, e: number, head: Buffer): string | null {
    const start = e >>> 8,
      count = e & 255;
    const at = start * SECTOR;
    if (readSync(this.fd, head, 0, 5, at) < 5) return `truncated: the file ends ${this.fileBytes - at} bytes into its first sector, before its length`;
    const length = head.readUInt32BE(0),
      type = head[4]!;
    if (length === 0) return "its sectors are listed, but its data is missing (length 0)";
    const c = type & 0x7f;
    if (c < 1 || c > 4) return `unknown compression id ${type}`;
    if ((type & 0x80) !== 0) {
      const { x, z } = this.chunkOf(index);
      return existsSync(join(dirname(this.path), `c.${x}.${z}.mcc`)) ? null : `its data is in c.${x}.${z}.mcc, which is missing`;
    }
    if (4 + length > count * SECTOR) return `length ${length} is more than its ${count} sectors`;
    if (at + 4 + length > this.fileBytes) return `truncated: ${length - 1} bytes of data expected, the file ends after ${Math.max(0, this.fileBytes - at - 5)}`;
    return null;
  }

  private index(x: number, z: number): number {
    return (x & 31) | ((z & 31) << 5);
  }

  has(x: number, z: number): boolean {
    return this.offsets[this.index(x, z)] !== 0;
  }

  /** Chunk coordinates of every chunk the header lists. */
  chunks(): { x: number; z: number }[] {
    const out: { x: number; z: number }[] = [];
    for (let i = 0; i < 1024; i++) if (this.offsets[i] !== 0) out.push(this.chunkOf(i));
    return out;
  }

  /** Every damaged chunk (in index order) and why; empty for a healthy file. */
  damaged(): readonly RegionDamage[] {
    this.checkChunks();
    return [...this.damage].sort((a, b) => a[0] - b[0]).map(([i, why]) => ({ chunk: this.chunkOf(i), why }));
  }

  /** The `corrupt_region` refusal of a damaged file (null when healthy): what a write into it meets. */
  refusal(): SaveError | null {
    this.checkChunks();
    if (this.damage.size === 0) return null;
    const all = this.damaged();
    const named = all.slice(0, 3).map((d) => `chunk ${d.chunk.x},${d.chunk.z} (${d.why})`);
    return new SaveError(
      "corrupt_region",
      `${this.path} is damaged: ${named.join("; ")}${all.length > 3 ? ` and ${all.length - 3} more` : ""}. mcb writes nothing into a damaged region, and the game would drop those chunks and generate them again: restore the file from a backup, or repair it with a region tool (Minecraft Region Fixer, MCA Selector), then try again. Other regions of the save stay writable`,
      { file: this.path, damaged: all.slice(0, 8), damaged_count: all.length },
    );
  }

  /** The chunk's NBT and compression, or null when the region has no such chunk. Throws `corrupt_chunk`. */
  read(x: number, z: number): StoredChunk | null {
    const i = this.index(x, z);
    const e = this.offsets[i]!;
    if (e === 0) return null;
    const fail = (why: string): never => {
      throw new SaveError("corrupt_chunk", `chunk ${x},${z} in ${this.path}: ${why}`, { file: this.path, chunk: { x, z } });
    };
    const known = this.damage.get(i);
    if (known !== undefined) fail(known);
    const start = e >>> 8;
    const head = Buffer.alloc(5);
    if (this.headsChecked) readSync(this.fd, head, 0, 5, start * SECTOR);
    else {
      // Before the whole file's check, the chunk's own head is checked here (that reads `head`).
      const bad = this.headProblem(i, e, head);
      if (bad !== null) fail(bad);
    }
    const length = head.readUInt32BE(0),
      type = head[4]!;
    const c = type & 0x7f;
    let data: Uint8Array;
    if ((type & 0x80) !== 0) {
      const mcc = join(dirname(this.path), `c.${x}.${z}.mcc`);
      if (!existsSync(mcc)) fail(`its data is in ${basename(mcc)}, which is missing`);
      data = readFileSync(mcc);
    } else {
      const body = Buffer.alloc(length - 1);
      if (readSync(this.fd, body, 0, length - 1, start * SECTOR + 5) < length - 1) fail(`truncated: ${length - 1} bytes expected`);
      data = body;
    }
    try {
      return { nbt: decompress(data, c), compression: c as Compression };
    } catch (err) {
      const m = err instanceof Lz4Error || err instanceof Error ? err.message : String(err);
      return fail(`cannot decompress (${m})`);
    }
  }

  /**
   * Writes chunks crash-safely (see the class). All or none of the header entries change in one
   * header write; a kill before it leaves the old chunks (and unused sectors past them). Throws
   * `corrupt_region` for a damaged file, before writing anything.
   */
  write(chunks: readonly ChunkWrite[]): void {
    if (chunks.length === 0) return;
    const refused = this.refusal();
    if (refused !== null) throw refused;
    if (this.fileBytes < HEADER_BYTES) {
      // A new or empty file: an empty header first.
      this.put(new Uint8Array(HEADER_BYTES), 0);
      this.fileBytes = HEADER_BYTES;
    }
    const taken = this.takenSectors();
    const used = taken.used;
    const now = Math.floor(Date.now() / 1000);
    const newEntries: { index: number; entry: number; dropMcc: string | null }[] = [];
    let end = taken.end;
    for (const c of chunks) {
      const body = compress(c.nbt, c.compression);
      const mcc = join(dirname(this.path), `c.${c.x}.${c.z}.mcc`);
      let bytes: Buffer;
      let dropMcc: string | null = null;
      if (Math.ceil((5 + body.length) / SECTOR) > MAX_SECTORS_INLINE) {
        atomicWriteFile(mcc, body);
        bytes = Buffer.alloc(5);
        bytes.writeUInt32BE(1, 0);
        bytes[4] = c.compression | 0x80;
      } else {
        bytes = Buffer.alloc(5 + body.length);
        bytes.writeUInt32BE(body.length + 1, 0);
        bytes[4] = c.compression;
        bytes.set(body, 5);
        if (existsSync(mcc)) dropMcc = mcc;
      }
      const sectors = Math.ceil(bytes.length / SECTOR);
      const placed = this.place(sectors, used, end, this.index(c.x, c.z));
      const start = placed.start;
      end = placed.end;
      const padded = Buffer.alloc(sectors * SECTOR);
      bytes.copy(padded);
      this.put(padded, start * SECTOR);
      this.fileBytes = Math.max(this.fileBytes, (start + sectors) * SECTOR);
      newEntries.push({ index: this.index(c.x, c.z), entry: (start << 8) | sectors, dropMcc });
    }
    fsyncFd(this.fd);
    const head = Buffer.alloc(HEADER_BYTES);
    for (const n of newEntries) {
      this.offsets[n.index] = n.entry >>> 0;
      this.stamps[n.index] = now;
    }
    for (let i = 0; i < 1024; i++) {
      head.writeUInt32BE(this.offsets[i]!, i * 4);
      head.writeUInt32BE(this.stamps[i]!, SECTOR + i * 4);
    }
    this.put(head, 0);
    fsyncFd(this.fd);
    for (const n of newEntries) if (n.dropMcc !== null) rmSync(n.dropMcc, { force: true });
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}
