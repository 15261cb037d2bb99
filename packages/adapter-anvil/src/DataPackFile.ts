import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { inflateRawSync } from "node:zlib";

/** A data pack file larger than this is not read (packs are kilobytes to a few megabytes). */
const MAX_PACK_BYTES = 256 << 20;
/** A file inside a pack larger than this is not read (a dimension type is a few hundred bytes). */
const MAX_ENTRY_BYTES = 1 << 20;

/** Why a data pack could not be read (the caller names the pack). */
export class DataPackUnreadable extends Error {}

/**
 * One file of a data pack in a save's `datapacks/` folder, by its path inside the pack
 * (`data/minecraft/dimension_type/overworld.json`): the pack is a folder or a zip file (stored or
 * deflated entries, as every zip tool writes them). Null when the pack does not have the file.
 * Throws `DataPackUnreadable` for a pack that is not a readable zip.
 */
export function dataPackFile(pack: string, inside: string): Buffer | null {
  if (!existsSync(pack)) return null;
  if (statSync(pack).isDirectory()) {
    const path = join(pack, ...inside.split("/"));
    if (!path.startsWith(pack + sep) || !existsSync(path)) return null;
    return readFileSync(path);
  }
  const fd = openSync(pack, "r");
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_PACK_BYTES) throw new DataPackUnreadable(`${size} bytes, more than ${MAX_PACK_BYTES} a pack may have`);
    const at = (n: number, pos: number): Buffer => {
      const b = Buffer.alloc(n);
      if (readSync(fd, b, 0, n, pos) < n) throw new DataPackUnreadable("the zip ends early");
      return b;
    };
    // The end-of-central-directory record: the last 22 bytes, or before a comment of up to 64 KiB.
    const tail = at(Math.min(size, 22 + 0xffff), Math.max(0, size - 22 - 0xffff));
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--)
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    if (eocd < 0) throw new DataPackUnreadable("not a zip file (no end-of-central-directory record)");
    const count = tail.readUInt16LE(eocd + 10),
      dirSize = tail.readUInt32LE(eocd + 12),
      dirAt = tail.readUInt32LE(eocd + 16);
    if (dirAt + dirSize > size) throw new DataPackUnreadable("its central directory lies past the end of the file");
    const dir = at(dirSize, dirAt);
    for (let p = 0, k = 0; k < count; k++) {
      if (p + 46 > dir.length || dir.readUInt32LE(p) !== 0x02014b50) throw new DataPackUnreadable("a damaged central directory");
      const method = dir.readUInt16LE(p + 10),
        packed = dir.readUInt32LE(p + 20),
        plain = dir.readUInt32LE(p + 24),
        nameLength = dir.readUInt16LE(p + 28),
        extra = dir.readUInt16LE(p + 30),
        comment = dir.readUInt16LE(p + 32),
        local = dir.readUInt32LE(p + 42);
      const name = dir.toString("utf8", p + 46, p + 46 + nameLength);
      p += 46 + nameLength + extra + comment;
      if (name !== inside) continue;
      if (plain > MAX_ENTRY_BYTES || packed > MAX_ENTRY_BYTES) throw new DataPackUnreadable(`${inside} is larger than ${MAX_ENTRY_BYTES} bytes`);
      const head = at(30, local);
      if (head.readUInt32LE(0) !== 0x04034b50) throw new DataPackUnreadable(`${inside}: a damaged local header`);
      const data = at(packed, local + 30 + head.readUInt16LE(26) + head.readUInt16LE(28));
      if (method === 0) return data;
      if (method === 8) return inflateRawSync(data, { maxOutputLength: MAX_ENTRY_BYTES });
      throw new DataPackUnreadable(`${inside} uses zip compression method ${method} (only stored and deflated are read)`);
    }
    return null;
  } catch (e) {
    if (e instanceof DataPackUnreadable) throw e;
    if ((e as { code?: string }).code?.startsWith("Z_") === true) throw new DataPackUnreadable(`cannot inflate (${(e as Error).message})`);
    throw e;
  } finally {
    closeSync(fd);
  }
}
