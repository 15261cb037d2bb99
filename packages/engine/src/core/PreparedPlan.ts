import { createHash } from "node:crypto";
import { packRuns, unpackRuns } from "./PackedRuns.js";

/**
 * A prepared (checked) plan as stored in the journal: the write set with its base ("before",
 * captured at preparation) and desired ("after") states, and the read dependencies with their
 * expected states. Positions are in plan order (y, z, x). Immutable once stored.
 */
/** Where a build's plan came from when not from a recipe (its operation's kind: see OperationStatus). */
export const PLAN_ORIGINS = ["terrain", "import", "brush"] as const;
export type PlanOrigin = (typeof PLAN_ORIGINS)[number];

export function isPlanOrigin(s: unknown): s is PlanOrigin {
  return typeof s === "string" && (PLAN_ORIGINS as readonly string[]).includes(s);
}

export interface PreparedPlan {
  readonly planId: string;
  /** SHA-256 of the content (everything except id and timestamps): see `preparedPlanHash`. */
  readonly planHash: string;
  readonly projectId: string;
  readonly kind: "build" | "undo";
  /** What prepared a build from a compiled plan: terrain tiles, schematic imports, brushes (absent: a recipe). Not hashed. */
  readonly origin?: PlanOrigin;
  /** For an undo plan: the operation it reverses. */
  readonly undoOf: string | null;
  readonly partId: string | null;
  readonly worldId: string;
  readonly epoch: number;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly expiresAt: number;
  /**
   * Journal sequence taken just before the base states were read: a slice result or touch with a
   * larger sequence happened after preparation, or during it (see `ChangedSincePrepare`).
   */
  readonly preparedSeq: number;
  /** Hash of the compiled recipe plan this was prepared from (null for undo plans). */
  readonly sourceHash: string | null;
  /** State table referenced by `before`, `after`, `depState`. */
  readonly states: readonly string[];
  /** Block-entity digest table referenced by `beforeDigest`, `depDigest` (−1: no block entity). */
  readonly digests: readonly string[];
  /** Write set as (x, y, z) triples. */
  readonly pos: Int32Array;
  readonly before: Uint32Array;
  readonly beforeDigest: Int32Array;
  readonly after: Uint32Array;
  /** Block-entity data placed with write i: index into `data`, −1 for none (a new block entity gets defaults). */
  readonly afterData: Int32Array;
  /** Block-entity data table (canonical NBT bytes) referenced by `afterData`. */
  readonly data: readonly Uint8Array[];
  /** Write-set indices i (sorted) where writes i and i+1 are one indivisible multi-block group. */
  readonly pairs: Uint32Array;
  /** Dependencies as (x, y, z) triples with their expected state and digest. */
  readonly depPos: Int32Array;
  readonly depState: Uint32Array;
  readonly depDigest: Int32Array;
  /** Desired positions that already matched at preparation (not written, not ours). */
  readonly unchanged: number;
  /** Desired positions dropped because the current block did not match a `replace` filter. */
  readonly filtered: number;
}

export type PlanContent = Omit<PreparedPlan, "planId" | "planHash" | "createdAt" | "expiresAt" | "preparedSeq">;

const MAGIC = "mcb-prepared/3";
/** Plans stored before block data existed: read with no data. */
const MAGIC_2 = "mcb-prepared/2";
const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function bytesOf(a: Int32Array | Uint32Array | Uint8Array): Uint8Array {
  if (!HOST_LITTLE_ENDIAN) throw new Error("mcb requires a little-endian host");
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function contentHeader(p: PlanContent): string {
  // Fixed key order: this string is part of the hashed bytes.
  return JSON.stringify([
    MAGIC,
    p.projectId,
    p.kind,
    p.undoOf,
    p.partId,
    p.worldId,
    p.epoch,
    p.sourceHash,
    p.states,
    p.digests,
    p.pos.length / 3,
    p.depPos.length / 3,
    p.pairs.length,
    p.unchanged,
    p.filtered,
    p.data.map((d) => d.length),
  ]);
}

function arraysOf(p: PlanContent): (Int32Array | Uint32Array | Uint8Array)[] {
  return [p.pos, p.before, p.beforeDigest, p.after, p.afterData, p.pairs, p.depPos, p.depState, p.depDigest, ...p.data];
}

/** SHA-256 (lowercase hex) of the canonical content encoding; independent of ids and clocks. */
export function preparedPlanHash(p: PlanContent): string {
  const hash = createHash("sha256");
  const header = Buffer.from(contentHeader(p), "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32LE(header.length);
  hash.update(len).update(header);
  for (const a of arraysOf(p)) hash.update(bytesOf(a));
  return hash.digest("hex");
}

function outerHeader(p: PreparedPlan, packed: boolean): Buffer {
  return Buffer.from(
    JSON.stringify({
      ...(packed ? { packed: 1 } : {}),
      id: p.planId,
      hash: p.planHash,
      created: p.createdAt,
      expires: p.expiresAt,
      seq: p.preparedSeq,
      ...(p.origin === undefined ? {} : { origin: p.origin }),
      content: contentHeader(p),
    }),
    "utf8",
  );
}

/** How each integer array of a plan is packed for storage (stride, delta), in `arraysOf` order. */
const PACKING: readonly (readonly [number, boolean])[] = [
  [3, true], // pos
  [1, false], // before
  [1, false], // beforeDigest
  [1, false], // after
  [1, false], // afterData
  [1, true], // pairs
  [3, true], // depPos
  [1, false], // depState
  [1, false], // depDigest
];

/**
 * Serialises a plan for the journal: u32 header length, JSON header, then the arrays. Stored
 * `packed` (the header says so): each integer array is a tag byte, then either its bytes (0) or a
 * u32 word count and its runs (1, `packRuns`: a box's 100,000 positions are a few thousand words);
 * block data follows as it is. The hash is of the content, not of this form.
 */
export function encodePreparedPlan(p: PreparedPlan): Buffer {
  const header = outerHeader(p, true);
  const arrays = arraysOf(p);
  const parts: Uint8Array[] = [];
  let body = 0;
  arrays.forEach((a, i) => {
    const spec = PACKING[i];
    if (spec === undefined) {
      parts.push(bytesOf(a)); // block data
      body += a.byteLength;
      return;
    }
    const runs = packRuns(a as Int32Array | Uint32Array, spec[0], spec[1]);
    const head = Buffer.alloc(runs === null ? 1 : 5);
    head[0] = runs === null ? 0 : 1;
    if (runs !== null) head.writeUInt32LE(runs.length, 1);
    const bytes = bytesOf(runs ?? a);
    parts.push(head, bytes);
    body += head.length + bytes.length;
  });
  const out = Buffer.alloc(4 + header.length + body);
  out.writeUInt32LE(header.length, 0);
  header.copy(out, 4);
  let at = 4 + header.length;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** A stored plan's JSON header: identity, times, and the hashed content as one JSON string. */
interface StoredHeader {
  /** 1: integer arrays packed (see `encodePreparedPlan`); absent: raw, as stored before 12-06. */
  packed?: number;
  id: string;
  hash: string;
  created: number;
  expires: number;
  /** Absent in plans stored before it existed: 0, every later journal record counts. */
  seq?: number;
  origin?: PlanOrigin;
  content: string;
}

/** The content: format, project, kind, undoOf, partId, world, epoch, sourceHash, states, digests, n, m, pairs, unchanged, filtered, data lengths. */
type StoredContent = [
  string,
  string,
  "build" | "undo",
  string | null,
  string | null,
  string,
  number,
  string | null,
  string[],
  string[],
  number,
  number,
  number,
  number,
  number,
  number[]?,
];

/** Reads the arrays after the header in order, each copied into a fresh aligned buffer (the source offset need not be 4-byte aligned). */
class ArrayCursor {
  constructor(
    private readonly b: Buffer,
    public at: number,
  ) {}

  /** Set by the stored header: arrays come tagged, raw or as runs. */
  packed = false;
  private next = 0;

  i32(len: number): Int32Array {
    return this.array(new Int32Array(len));
  }

  u32(len: number): Uint32Array {
    return this.array(new Uint32Array(len));
  }

  private array<T extends Int32Array | Uint32Array>(out: T): T {
    if (!this.packed) return this.take(out);
    const spec = PACKING[this.next++]!;
    const tag = this.b[this.at++];
    if (tag === 0) return this.take(out);
    if (tag !== 1) throw new Error(`stored plan: unknown array tag ${String(tag)}`);
    const words = this.b.readUInt32LE(this.at);
    this.at += 4;
    const runs = this.take(new Int32Array(words));
    return unpackRuns(runs, spec[0], spec[1], out);
  }

  bytes(len: number): Uint8Array {
    const d = new Uint8Array(this.b.subarray(this.at, this.at + len));
    this.at += len;
    return d;
  }

  private take<T extends Int32Array | Uint32Array>(out: T): T {
    new Uint8Array(out.buffer).set(this.b.subarray(this.at, this.at + out.length * 4));
    this.at += out.length * 4;
    return out;
  }
}

/** A stored plan's headers, and a cursor at its first array. */
function openStored(buf: Uint8Array): { readonly outer: StoredHeader; readonly c: StoredContent; readonly r: ArrayCursor } {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const headerLength = b.readUInt32LE(0);
  const outer = JSON.parse(b.subarray(4, 4 + headerLength).toString("utf8")) as StoredHeader;
  const c = JSON.parse(outer.content) as StoredContent;
  if (c[0] !== MAGIC && c[0] !== MAGIC_2) throw new Error(`journal plan has format ${String(c[0])}, expected ${MAGIC}`);
  const r = new ArrayCursor(b, 4 + headerLength);
  r.packed = outer.packed === 1;
  return { outer, c, r };
}

/** Only the write-set positions of a stored plan (`decodePreparedPlan(buf).pos`), the other arrays left as bytes. */
export function decodePlanPositions(buf: Uint8Array): Int32Array {
  const { c, r } = openStored(buf);
  return r.i32(c[10] * 3);
}

export function decodePreparedPlan(buf: Uint8Array): PreparedPlan {
  const { outer, c, r } = openStored(buf);
  const v3 = c[0] === MAGIC;
  const [n, m, pairCount] = [c[10], c[11], c[12]];
  const pos = r.i32(n * 3);
  const before = r.u32(n);
  const beforeDigest = r.i32(n);
  const after = r.u32(n);
  const afterData = v3 ? r.i32(n) : new Int32Array(n).fill(-1); // packed plans are all of format 3
  const pairs = r.u32(pairCount);
  const depPos = r.i32(m * 3);
  const depState = r.u32(m);
  const depDigest = r.i32(m);
  const data = (c[15] ?? []).map((len) => r.bytes(len));
  const plan: PreparedPlan = {
    planId: outer.id,
    planHash: outer.hash,
    createdAt: outer.created,
    expiresAt: outer.expires,
    preparedSeq: outer.seq ?? 0,
    ...(outer.origin === undefined ? {} : { origin: outer.origin }),
    projectId: c[1],
    kind: c[2],
    undoOf: c[3],
    partId: c[4],
    worldId: c[5],
    epoch: c[6],
    sourceHash: c[7],
    states: c[8],
    digests: c[9],
    pos,
    before,
    beforeDigest,
    after,
    afterData,
    pairs,
    depPos,
    depState,
    depDigest,
    data,
    unchanged: c[13],
    filtered: c[14],
  };
  if (r.at !== buf.byteLength) throw new Error(`journal plan ${plan.planId}: ${buf.byteLength - r.at} trailing bytes`);
  return plan;
}

/** Number of positions in the write set. */
export function writeCount(p: PlanContent): number {
  return p.pos.length / 3;
}

/**
 * Index of (x, y, z) in a write set sorted by (y, z, x), or −1. Binary search: only for plans
 * without multi-block pairs (pairing moves a partner next to its first member, out of order).
 */
export function writeIndexOf(p: PlanContent, x: number, y: number, z: number): number {
  const pos = p.pos;
  let lo = 0;
  let hi = pos.length / 3 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const o = mid * 3;
    const d = pos[o + 1]! - y || pos[o + 2]! - z || pos[o]! - x;
    if (d === 0) return mid;
    if (d < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
