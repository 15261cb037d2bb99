// Reads named entries of a zip (a Maven jar) with node:zlib only: the end-of-central-directory
// record, the central directory, then each wanted local entry (stored or deflated), its CRC checked.
import { readFileSync } from "node:fs";
import { inflateRawSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 as zip stores it (node:zlib's crc32 needs Node 20.15; our floor is 20). */
function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * The bytes of `names` in the zip at `path`, by name. Throws with the jar and entry named when the
 * file is not a zip, an entry is missing, or an entry's size or CRC does not match its record.
 */
export function readJarEntries(path, names) {
  const zip = readFileSync(path);
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65535); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${path}: not a zip (no end of central directory)`);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const wanted = new Set(names);
  const out = new Map();
  for (let k = 0; k < count; k++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${path}: central directory entry ${k} is malformed`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const packed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extra + comment;
    if (!wanted.has(name)) continue;
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`${path}: ${name}: bad local header`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + packed);
    const bytes = method === 0 ? Buffer.from(raw) : method === 8 ? inflateRawSync(raw) : null;
    if (bytes === null) throw new Error(`${path}: ${name}: unsupported compression method ${method}`);
    if (bytes.length !== size || crc32(bytes) !== crc) throw new Error(`${path}: ${name}: size or CRC does not match the directory`);
    out.set(name, bytes);
  }
  for (const name of names) if (!out.has(name)) throw new Error(`${path} has no ${name}`);
  return out;
}
