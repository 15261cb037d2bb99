import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundsOf, posKey } from "@mcb/blocks";
import { maskOfVisits, sortedMask } from "../../src/parts/PartMask.js";
import { denseMaskAndSet, denseRunsAndSet, gridOf, isDense, PositionSet, type Grid } from "../../src/parts/PositionSet.js";
import { unpackRuns } from "../../src/core/PackedRuns.js";

/** The positions of flat triples, visited. */
const visitOf = (t: readonly number[]) => (emit: (x: number, y: number, z: number) => void) => {
  for (let i = 0; i < t.length; i += 3) emit(t[i]!, t[i + 1]!, t[i + 2]!);
};
const maskAndSet = (t: readonly number[]) => maskOfVisits(visitOf(t));
const maskOf = (t: readonly number[]) => maskAndSet(t).mask;

/** The plain statement: each position once, sorted by (y, z, x), through strings and tuples. */
function reference(triples: readonly number[]): Int32Array {
  const seen = new Map<string, [number, number, number]>();
  for (let i = 0; i < triples.length; i += 3) seen.set(posKey(triples[i]!, triples[i + 1]!, triples[i + 2]!), [triples[i]!, triples[i + 1]!, triples[i + 2]!]);
  return sortedMask([...seen.values()]);
}

const coord = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.integer({ min: -29_999_984, max: 29_999_984 }));
const spread = fc.array(fc.tuple(coord, fc.integer({ min: -64, max: 319 }), coord), { maxLength: 200 }).map((ps) => ps.flat());
/** Positions filling a small box somewhere (the bit-map way: its bounds hold at most 16 places a position). */
const packed = fc
  .tuple(fc.integer({ min: -29_999_984, max: 29_999_984 }), fc.integer({ min: -64, max: 300 }), fc.integer({ min: -29_999_984, max: 29_999_984 }))
  .chain(([ox, oy, oz]) =>
    fc
      .array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 4 })), { minLength: 1, maxLength: 200 })
      .map((ps) => ps.flatMap(([x, y, z]) => [ox + x, oy + y, oz + z])),
  );
const triples = fc.oneof(spread, packed);
const dense = (t: readonly number[]): boolean => t.length > 0 && isDense(gridOf(boundsOf(t)!), t.length / 3);

describe("part masks without an object per position", () => {
  it("maskOf equals the plain statement, near and far apart (numeric keys or strings), duplicates included", () => {
    fc.assert(
      fc.property(triples, fc.nat(), fc.nat({ max: 3 }), (t, dup, grow) => {
        const withDup = t.length === 0 ? t : [...t, ...t.slice((dup % (t.length / 3)) * 3, (dup % (t.length / 3)) * 3 + 3)];
        expect([...maskOf(withDup)]).toEqual([...reference(withDup)]);
        // the same positions visited (twice) instead of listed
        const visit = visitOf(withDup);
        const visited = maskOfVisits(visit);
        expect([...visited.mask]).toEqual([...reference(withDup)]);
        // told bounds that hold them (larger by `grow`) and how many: one visit
        if (withDup.length > 0) {
          const b = boundsOf(withDup)!;
          const known = { bounds: { ...b, maxX: b.maxX + grow, minY: b.minY - grow }, count: withDup.length / 3 };
          expect([...maskOfVisits(visit, known).mask]).toEqual([...reference(withDup)]);
        }
        for (let i = 0; i < withDup.length; i += 3) expect(visited.set.has(withDup[i]!, withDup[i + 1]!, withDup[i + 2]!)).toBe(true);
        expect(visited.set.has(30_000_001, 0, 0)).toBe(false);
        // dense: straight into the stored runs, never triples; the same positions, count and bounds
        if (dense(withDup)) {
          const ref = reference(withDup);
          const d = denseRunsAndSet(gridOf(boundsOf(withDup)!), visit);
          expect(d.count).toBe(ref.length / 3);
          expect([...unpackRuns(d.runs, 3, true, new Int32Array(d.count * 3))]).toEqual([...ref]);
          expect(d.bounds).toEqual(boundsOf(ref));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("PositionSet answers as a set of strings would", () => {
    fc.assert(
      fc.property(triples, fc.array(fc.tuple(coord, fc.integer({ min: -64, max: 319 }), coord), { maxLength: 50 }), (t, queries) => {
        const set = PositionSet.of(t);
        const fromMask = PositionSet.of(maskOf(t));
        const shared = maskAndSet(t).set;
        const strings = new Set<string>();
        for (let i = 0; i < t.length; i += 3) strings.add(posKey(t[i]!, t[i + 1]!, t[i + 2]!));
        const asked = [...queries, ...Array.from({ length: t.length / 3 }, (_, i) => [t[i * 3]!, t[i * 3 + 1]!, t[i * 3 + 2]!] as [number, number, number])];
        for (const [x, y, z] of asked) {
          expect(set.has(x, y, z)).toBe(strings.has(posKey(x, y, z)));
          expect(fromMask.has(x, y, z)).toBe(strings.has(posKey(x, y, z)));
          expect(shared.has(x, y, z)).toBe(strings.has(posKey(x, y, z)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("both ways are taken: bit maps for positions that fill their bounds, sorted keys for the others", () => {
    const samples = fc.sample(triples, { numRuns: 300, seed: 45 });
    const d = samples.filter(dense).length;
    expect(d).toBeGreaterThan(60);
    expect(samples.length - d).toBeGreaterThan(60);
  });

  it("a planted bit map whose keys forget z's stride is caught", () => {
    // Two positions share a bit when z is counted like x: the mask loses one and the set answers wrongly.
    const forgetful = (g: Grid): Grid => ({ ...g, key: (x, y, z) => (g.key(x, y, z) < 0 ? -1 : (y - g.minY) * g.sz * g.sx + (z - g.minZ) + (x - g.minX)) });
    const r = fc.check(
      fc.property(triples, (t) => {
        if (!dense(t)) return;
        const visit = (emit: (x: number, y: number, z: number) => void) => {
          for (let i = 0; i < t.length; i += 3) emit(t[i]!, t[i + 1]!, t[i + 2]!);
        };
        expect([...denseMaskAndSet(forgetful(gridOf(boundsOf(t)!)), visit).mask]).toEqual([...reference(t)]);
      }),
      { numRuns: 300 },
    );
    expect(r.failed).toBe(true);
  });

  it("a planted decoder that swaps y and z is caught", () => {
    const planted = (t: readonly number[]): number[] => {
      const m = [...maskOf(t)];
      for (let i = 0; i < m.length; i += 3) [m[i + 1], m[i + 2]] = [m[i + 2]!, m[i + 1]!];
      return m;
    };
    const r = fc.check(
      fc.property(triples, (t) => {
        expect(planted(t)).toEqual([...reference(t)]);
      }),
      { numRuns: 300 },
    );
    expect(r.failed).toBe(true);
  });
});
