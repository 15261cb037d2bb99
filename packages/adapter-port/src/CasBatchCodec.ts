import { MAX_SLICE_WINDOW, type CasBatchResult, type CasMismatch, type CasResult, type CasSlice } from "@mcb/engine";
import { digestOrNull, pairs, savedMarks, str, withSaved } from "./PortAnswer.js";

/** Limits of the port's `cas_batch` (java/PROTOCOL.md), checked here too so a bad batch never leaves the bridge. */
const MAX_STATE_BYTES = 1024;
const MAX_TABLE = 65_536;
const MAX_WRITES = 512;
const MAX_CHECKS = 4096;
const MAX_DATA = 1 << 20;

/**
 * The binary body of `cas_batch` (java/PROTOCOL.md "cas_batch"; the Java side is CasBatchCodec):
 * "MCBC", version 1, the state and digest tables, then each slice's checks, writes (with their
 * data) and group ends, every integer little-endian. Sized in a first pass, written in a second.
 */
export function encodeBatch(slices: readonly CasSlice[]): Buffer {
  if (slices.length < 1 || slices.length > MAX_SLICE_WINDOW) throw new RangeError(`a batch holds 1..${MAX_SLICE_WINDOW} slices, not ${slices.length}`);
  const states = new Map<string, number>();
  const digests = new Map<string, number>();
  const stateId = (s: string): number => {
    let id = states.get(s);
    if (id === undefined) states.set(s, (id = states.size));
    return id;
  };
  const digestId = (d: string | null): number => {
    if (d === null) return -1;
    let id = digests.get(d);
    if (id === undefined) {
      if (!/^[0-9a-f]{64}$/.test(d)) throw new RangeError("a block-entity digest is 64 lowercase hex characters");
      digests.set(d, (id = digests.size));
    }
    return id;
  };
  let size = 4 + 1 + 4 + 4 + 2;
  for (const s of slices) {
    if (s.writes.length > MAX_WRITES) throw new RangeError(`${s.writes.length} writes exceed ${MAX_WRITES} per slice`);
    if (s.checks.length > MAX_CHECKS) throw new RangeError(`${s.checks.length} checks exceed ${MAX_CHECKS}`);
    size += 12 + s.checks.length * 20 + s.writes.length * 28 + (s.groupEnds?.length ?? 0) * 4;
    for (const c of s.checks) (stateId(c.state), digestId(c.digest));
    for (const w of s.writes) {
      (stateId(w.before), digestId(w.beforeDigest), stateId(w.after));
      if (w.afterData !== undefined) {
        if (w.afterData.length > MAX_DATA) throw new RangeError(`block-entity data of ${w.afterData.length} bytes exceeds ${MAX_DATA}`);
        size += w.afterData.length;
      }
    }
  }
  if (states.size > MAX_TABLE || digests.size > MAX_TABLE) throw new RangeError(`a batch names at most ${MAX_TABLE} states and digests`);
  const names = [...states.keys()].map((s) => Buffer.from(s, "utf8"));
  for (const b of names) {
    if (b.length > MAX_STATE_BYTES) throw new RangeError(`a state of ${b.length} bytes (at most ${MAX_STATE_BYTES})`);
    size += 2 + b.length;
  }
  size += digests.size * 32;
  const out = Buffer.alloc(size);
  const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let n = 0;
  out.write("MCBC", 0, "latin1");
  n = 4;
  v.setUint8(n++, 1);
  (v.setUint32(n, names.length, true), (n += 4));
  for (const b of names) {
    (v.setUint16(n, b.length, true), (n += 2));
    (out.set(b, n), (n += b.length));
  }
  (v.setUint32(n, digests.size, true), (n += 4));
  for (const d of digests.keys()) (out.write(d, n, "hex"), (n += 32));
  (v.setUint16(n, slices.length, true), (n += 2));
  for (const s of slices) {
    (v.setUint32(n, s.checks.length, true), (n += 4));
    for (const c of s.checks) {
      (v.setInt32(n, c.x, true), v.setInt32(n + 4, c.y, true), v.setInt32(n + 8, c.z, true));
      (v.setUint32(n + 12, states.get(c.state)!, true), v.setInt32(n + 16, c.digest === null ? -1 : digests.get(c.digest)!, true));
      n += 20;
    }
    (v.setUint32(n, s.writes.length, true), (n += 4));
    for (const w of s.writes) {
      (v.setInt32(n, w.x, true), v.setInt32(n + 4, w.y, true), v.setInt32(n + 8, w.z, true));
      (v.setUint32(n + 12, states.get(w.before)!, true), v.setInt32(n + 16, w.beforeDigest === null ? -1 : digests.get(w.beforeDigest)!, true));
      v.setUint32(n + 20, states.get(w.after)!, true);
      if (w.afterData === undefined) (v.setInt32(n + 24, -1, true), (n += 28));
      else {
        (v.setInt32(n + 24, w.afterData.length, true), (n += 28));
        (out.set(w.afterData, n), (n += w.afterData.length));
      }
    }
    const ends = s.groupEnds ?? [];
    (v.setUint32(n, ends.length, true), (n += 4));
    for (const e of ends) (v.setUint32(n, e, true), (n += 4));
  }
  if (n !== size) throw new Error(`cas_batch encoder wrote ${n} of ${size} bytes`);
  return out;
}

/** A slice's result as the port answers it (`cas` and each entry of `cas_batch`). */
export function decodeCasResult(r: Record<string, unknown>): CasResult {
  if (!Array.isArray(r.mismatches)) throw new TypeError("port answer: mismatches is not an array");
  const written = Number(r.written);
  if (!Number.isSafeInteger(written) || written < 0) throw new TypeError("port answer: bad written");
  const mismatches: CasMismatch[] = r.mismatches.map((m: Record<string, unknown>) => ({
    kind: m.kind === "check" ? "check" : "write",
    index: Number(m.index),
    x: Number(m.x),
    y: Number(m.y),
    z: Number(m.z),
    expected: str(m.expected, "expected"),
    expectedDigest: digestOrNull(m.expected_digest, "expected_digest"),
    actual: str(m.actual, "actual"),
    actualDigest: digestOrNull(m.actual_digest, "actual_digest"),
  }));
  const entityDigests = pairs(r.entity_digests, "entity_digests", (x) => str(x, "an entity digest"));
  return { written, mismatches, entityDigests, ...withSaved(savedMarks(r)) };
}

/** The answer of `cas_batch`: each slice's result (write numbers under the batch's session) and where it stopped. */
export function decodeBatchResult(r: Record<string, unknown>, slices: number): CasBatchResult {
  if (!Array.isArray(r.results) || r.results.length > slices) throw new TypeError("port answer: results is not an array of at most one per slice");
  const withSession = (x: Record<string, unknown>): Record<string, unknown> => ({ ...x, session: r.session, saved_through: r.saved_through });
  const results = r.results.map((x: Record<string, unknown>) => decodeCasResult(withSession(x)));
  const s = r.stopped as { slice?: unknown; reason?: unknown; error?: { code?: unknown; message?: unknown } } | null | undefined;
  if (s === null || s === undefined) {
    if (results.length !== slices) throw new TypeError("port answer: a batch that did not stop ran every slice");
    return { results };
  }
  const slice = Number(s.slice);
  if (!Number.isInteger(slice) || slice < 0 || slice >= slices) throw new TypeError("port answer: stopped.slice is outside the batch");
  const message = String(s.error?.message ?? "");
  switch (s.reason) {
    case "mismatch":
      if (results.length !== slice + 1 || results[slice]!.mismatches.length === 0)
        throw new TypeError("port answer: a mismatch stop without that slice's mismatches");
      return { results, stopped: { slice, reason: "mismatch" } };
    case "refused":
      if (results.length !== slice) throw new TypeError("port answer: a refused slice with a result");
      return { results, stopped: { slice, reason: "refused", code: String(s.error?.code ?? "busy"), message } };
    case "failed":
      if (results.length !== slice) throw new TypeError("port answer: a failed slice with a result");
      return { results, stopped: { slice, reason: "failed", message } };
    default:
      throw new TypeError(`port answer: unknown stop reason ${String(s.reason)}`);
  }
}
