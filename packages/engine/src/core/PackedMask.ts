import { unpackRuns } from "./PackedRuns.js";

/**
 * Part records whose mask is still packed (delta runs, stride 3, as the journal stores masks):
 * their runs and how many positions they hold. A box of ten million blocks is a few thousand runs;
 * its triples (120 MB) are decoded only when something reads `mask`.
 */
const packed = new WeakMap<object, { readonly runs: Int32Array; readonly count: number }>();

/** `record` with a `mask` decoded from `runs` the first time it is read (then kept). */
export function withPackedMask<T extends object>(record: T, runs: Int32Array, count: number): T & { readonly mask: Int32Array } {
  let mask: Int32Array | null = null;
  const out = Object.defineProperty({ ...record }, "mask", {
    enumerable: true,
    get: (): Int32Array => (mask ??= unpackRuns(runs, 3, true, new Int32Array(count * 3))),
  }) as T & { readonly mask: Int32Array };
  packed.set(out, { runs, count });
  return out;
}

/** Positions in a record's mask, without decoding a packed one. */
export function maskCount(record: { readonly mask: Int32Array }): number {
  return packed.get(record)?.count ?? record.mask.length / 3;
}

/** The packed runs of a record made by `withPackedMask`, or null. */
export function packedRunsOf(record: object): Int32Array | null {
  return packed.get(record)?.runs ?? null;
}

/** A record's fields but `mask` (read without decoding a packed mask). */
export function withoutMask<T extends { readonly mask: Int32Array }>(record: T): Omit<T, "mask"> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(record)) if (k !== "mask") out[k] = (record as Record<string, unknown>)[k];
  return out as Omit<T, "mask">;
}
