import { createHash } from "node:crypto";
import type { Plan, PlanBlockData, PlanRuns } from "./Plan.js";

/** What the hash covers: a plan's content (a `Plan` without its hash, or one being assembled). */
export type HashablePlan = Pick<Plan, "minecraftVersion" | "dataVersion" | "palette" | "filters" | "runs" | "reads"> & {
  readonly blockData?: readonly PlanBlockData[];
};

/**
 * Canonical encoding, little-endian: "mcb-plan/1\0", u32 dataVersion, str minecraftVersion,
 * u32 n + n × str palette, u32 n + n × (u32 k + k × str id, u32 m + m × str state) filters,
 * u32 n + n × i32[6] runs (y, z, x, length, state, filter), u32 n + n × i32[3] reads.
 * str = u32 byte length + UTF-8. Runs are maximal, so the bytes depend only on the plan's content.
 * Only when block data is present: "\0data", u32 n + n × (i32[3] position, u32 length + bytes),
 * so plans without it keep the hashes they always had.
 */
export function planHash(plan: HashablePlan): string {
  const hash = createHash("sha256");
  const u32 = (n: number): void => {
    const b = Buffer.allocUnsafe(4);
    b.writeUInt32LE(n >>> 0);
    hash.update(b);
  };
  const str = (s: string): void => {
    const b = Buffer.from(s, "utf8");
    u32(b.length);
    hash.update(b);
  };
  hash.update("mcb-plan/1\0");
  u32(plan.dataVersion);
  str(plan.minecraftVersion);
  u32(plan.palette.length);
  plan.palette.forEach(str);
  u32(plan.filters.length);
  for (const f of plan.filters) {
    u32(f.ids.length);
    f.ids.forEach(str);
    u32(f.states.length);
    f.states.forEach(str);
  }
  const n = plan.runs.length.length;
  u32(n);
  // In chunks through one small reused buffer: cache-resident, no fresh memory per plan.
  for (let r = 0; r < n; r += CHUNK_RUNS) hash.update(littleEndian(interleavedRuns(plan.runs, r, Math.min(n, r + CHUNK_RUNS))));
  u32(plan.reads.length / 3);
  hash.update(littleEndian(plan.reads));
  const data = plan.blockData ?? [];
  if (data.length > 0) {
    hash.update("\0data");
    u32(data.length);
    for (const d of data) {
      hash.update(littleEndian(Int32Array.of(d.x, d.y, d.z)));
      u32(d.data.length);
      hash.update(d.data);
    }
  }
  return hash.digest("hex");
}

/** Runs hashed per chunk (24 bytes each: a 48 KiB buffer). */
const CHUNK_RUNS = 2048;
const chunk = new Int32Array(CHUNK_RUNS * 6);

/**
 * Runs [from, to) as i32[6] records, in a buffer reused by every call (valid until the next).
 * (Hot loops live in small functions of their own: inside a large function called once per plan,
 * V8 compiles them on-stack and throws the code away again.)
 */
function interleavedRuns(runs: PlanRuns, from: number, to: number): Int32Array {
  const { y, z, x, length, state, filter } = runs;
  for (let r = from, o = 0; r < to; r++, o += 6) {
    chunk[o] = y[r]!;
    chunk[o + 1] = z[r]!;
    chunk[o + 2] = x[r]!;
    chunk[o + 3] = length[r]!;
    chunk[o + 4] = state[r]!;
    chunk[o + 5] = filter[r]!;
  }
  return chunk.subarray(0, (to - from) * 6);
}

const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function littleEndian(a: Int32Array): Uint8Array {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  if (HOST_LITTLE_ENDIAN) return bytes;
  const out = Buffer.alloc(a.byteLength);
  for (let i = 0; i < a.length; i++) out.writeInt32LE(a[i]!, i * 4);
  return out;
}
