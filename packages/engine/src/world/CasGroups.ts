import type { CasMismatch, CasSlice } from "./WorldAdapter.js";

/** What a world offers `compareAndSetGroups`: its current blocks, and a way to write one. */
export interface CasTarget {
  stateAt(x: number, y: number, z: number): string;
  digestAt(x: number, y: number, z: number): string | null;
  /** Writes `slice.writes[index]` (already verified); the world's own rules for block-entity data. */
  place(index: number): void;
}

/** The exclusive end offsets of a slice's groups (one write per group when it gives none). */
export function groupEndsOf(slice: CasSlice): readonly number[] {
  return slice.groupEnds ?? slice.writes.map((_, i) => i + 1);
}

export interface CasGroupsResult {
  readonly written: number;
  readonly mismatches: readonly CasMismatch[];
  readonly entityDigests: ReadonlyMap<number, string>;
}

/**
 * The compare-and-set rule of `WorldAdapter.compareAndSet`, for adapters that hold their blocks in
 * process (memory, a save): every check first (any mismatch writes nothing), then each group in
 * order, written only when every write's current state and digest equal its `before`; the first
 * failing group and all after it are not written. One definition, so the adapters cannot drift.
 */
export function compareAndSetGroups(slice: CasSlice, t: CasTarget): CasGroupsResult {
  const mismatches: CasMismatch[] = [];
  slice.checks.forEach((c, index) => {
    const actual = t.stateAt(c.x, c.y, c.z),
      actualDigest = t.digestAt(c.x, c.y, c.z);
    if (actual !== c.state || actualDigest !== c.digest)
      mismatches.push({ kind: "check", index, x: c.x, y: c.y, z: c.z, expected: c.state, expectedDigest: c.digest, actual, actualDigest });
  });
  const entityDigests = new Map<number, string>();
  if (mismatches.length > 0) return { written: 0, mismatches, entityDigests };
  const ends = groupEndsOf(slice);
  let written = 0;
  for (let g = 0; g < ends.length; g++) {
    const end = ends[g]!;
    for (let w = written; w < end; w++) {
      const c = slice.writes[w]!;
      const actual = t.stateAt(c.x, c.y, c.z),
        actualDigest = t.digestAt(c.x, c.y, c.z);
      if (actual !== c.before || actualDigest !== c.beforeDigest)
        mismatches.push({ kind: "write", index: w, x: c.x, y: c.y, z: c.z, expected: c.before, expectedDigest: c.beforeDigest, actual, actualDigest });
    }
    if (mismatches.length > 0) break;
    for (let w = written; w < end; w++) {
      t.place(w);
      const c = slice.writes[w]!;
      const d = t.digestAt(c.x, c.y, c.z);
      if (d !== null) entityDigests.set(w, d);
    }
    written = end;
  }
  return { written, mismatches, entityDigests };
}
