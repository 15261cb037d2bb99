// Issue 24 target: a schematic too large for the limits is refused from its dimensions before any
// large allocation: ≤ 2 s and ≤ 300 MB peak for the real 1,000 × 1,000 × 1,000 cube (10⁹
// positions, about 1 GB of NBT, about 1 MB gzipped), with the default limits and with the
// position limit raised. Generated here as the real file was: a Sponge v2 header, 10⁹ block
// indices, streamed through gzip. Baseline in the same run: inflating the whole file, what the
// reader did before (bounded by the NBT limit, so it stops at 512 MiB and fails).
import { constants, createGzip, gunzipSync } from "node:zlib";
import { createBlockRegistry } from "@mcb/blocks";
import { DEFAULT_SCHEMATIC_LIMITS, readSchematic } from "@mcb/schematic";

const SIDE = 1000;
const TIME_TARGET_MS = 2000;

/** NBT: a named tag header. */
function tag(type, name) {
  const n = Buffer.from(name, "utf8");
  const b = Buffer.alloc(3 + n.length);
  b[0] = type;
  b.writeUInt16BE(n.length, 1);
  n.copy(b, 3);
  return b;
}
const short = (name, v) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(v);
  return Buffer.concat([tag(2, name), b]);
};
const int = (name, v) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(v);
  return Buffer.concat([tag(3, name), b]);
};

async function cube() {
  const volume = SIDE ** 3;
  const head = Buffer.concat([
    tag(10, "Schematic"),
    int("Version", 2),
    int("DataVersion", 3953),
    short("Width", SIDE),
    short("Height", SIDE),
    short("Length", SIDE),
    int("PaletteMax", 1),
    tag(10, "Palette"),
    int("minecraft:stone", 0),
    Buffer.from([0]),
    tag(7, "BlockData"),
    (() => {
      const b = Buffer.alloc(4);
      b.writeInt32BE(volume);
      return b;
    })(),
  ]);
  const gz = createGzip({ level: 6 });
  const chunks = [];
  gz.on("data", (c) => chunks.push(c));
  const done = new Promise((res) => gz.on("end", res));
  gz.write(head);
  const zeros = Buffer.alloc(1 << 20);
  for (let left = volume; left > 0; left -= zeros.length) {
    if (!gz.write(left >= zeros.length ? zeros : zeros.subarray(0, left))) await new Promise((res) => gz.once("drain", res));
  }
  gz.end(Buffer.from([0]));
  await done;
  return Buffer.concat(chunks);
}

export async function run() {
  const t0 = Date.now();
  const file = await cube();
  console.log(`generated the 1,000³ cube: ${(file.length / 1e6).toFixed(2)} MB gzipped in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const registry = createBlockRegistry();
  let ok = true;
  for (const [label, limits] of [
    ["default limits", DEFAULT_SCHEMATIC_LIMITS],
    ["positions raised to 2·10⁹", { ...DEFAULT_SCHEMATIC_LIMITS, maxPositions: 2_000_000_000 }],
  ]) {
    const rss0 = process.memoryUsage().rss;
    const t = process.hrtime.bigint();
    const r = readSchematic(registry, file, { limits });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    const grew = (process.memoryUsage().rss - rss0) / 1e6;
    console.log(`${label}: ${r.ok ? "read?!" : `${r.error.code} (${r.error.details?.reason})`} in ${ms.toFixed(1)} ms, RSS grew ${grew.toFixed(0)} MB`);
    ok &&= !r.ok && ms <= TIME_TARGET_MS;
  }
  // The baseline: inflating the file as the reader did before the size probe (up to the NBT limit).
  const t = process.hrtime.bigint();
  try {
    gunzipSync(file, { maxOutputLength: DEFAULT_SCHEMATIC_LIMITS.maxNbtBytes, finishFlush: constants.Z_FINISH });
  } catch {
    /* over the limit, as expected */
  }
  const inflateMs = Number(process.hrtime.bigint() - t) / 1e6;
  console.log(`baseline, inflating up to the NBT limit first: ${inflateMs.toFixed(0)} ms`);
  return ok;
}
