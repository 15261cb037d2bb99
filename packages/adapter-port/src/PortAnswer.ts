import type { SavedMarks } from "@mcb/engine";

/** Readers of the port's JSON answers (java/PROTOCOL.md): every field checked, a bad one a TypeError naming it. */

export function str(x: unknown, what = "a field"): string {
  if (typeof x !== "string") throw new TypeError(`port answer: ${what} is not a string`);
  return x;
}

export function digestOrNull(x: unknown, what = "a digest"): string | null {
  return x === null ? null : str(x, what);
}

/** `[[index, value], …]` as a map. */
export function pairs<T>(v: unknown, what: string, decode: (x: unknown) => T): Map<number, T> {
  if (!Array.isArray(v)) throw new TypeError(`port answer: ${what} is not an array`);
  const m = new Map<number, T>();
  for (const p of v) {
    if (!Array.isArray(p) || p.length !== 2 || !Number.isInteger(p[0])) throw new TypeError(`port answer: bad ${what} entry`);
    m.set(p[0] as number, decode(p[1]));
  }
  return m;
}

/** The port's saved-writes fields (java/PROTOCOL.md "Saved writes"), present with the saved_writes capability. */
export function savedMarks(r: Record<string, unknown>): SavedMarks | undefined {
  if (typeof r.session !== "string" || r.saved_through === undefined || r.write_seq === undefined) return undefined;
  const writeSeq = Number(r.write_seq),
    savedThrough = Number(r.saved_through);
  if (!Number.isSafeInteger(writeSeq) || !Number.isSafeInteger(savedThrough) || writeSeq < 0 || savedThrough < 0)
    throw new TypeError("port answer: bad write_seq or saved_through");
  return { session: r.session, writeSeq, savedThrough };
}

export function withSaved(saved: SavedMarks | undefined): { saved?: SavedMarks } {
  return saved === undefined ? {} : { saved };
}
