import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { posKey } from "@mcb/blocks";
import { maskAndSet, maskOf, maskOfVisits, PositionSet, sortedMask } from "../../src/parts/PartMask.js";

/** The plain statement: each position once, sorted by (y, z, x), through strings and tuples. */
function reference(triples: readonly number[]): Int32Array {
  const seen = new Map<string, [number, number, number]>();
  for (let i = 0; i < triples.length; i += 3) seen.set(posKey(triples[i]!, triples[i + 1]!, triples[i + 2]!), [triples[i]!, triples[i + 1]!, triples[i + 2]!]);
  return sortedMask([...seen.values()]);
}

const coord = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.integer({ min: -29_999_984, max: 29_999_984 }));
const triples = fc.array(fc.tuple(coord, fc.integer({ min: -64, max: 319 }), coord), { maxLength: 200 }).map((ps) => ps.flat());

describe("part masks without an object per position", () => {
  it("maskOf equals the plain statement, near and far apart (numeric keys or strings), duplicates included", () => {
    fc.assert(
      fc.property(triples, fc.nat(), (t, dup) => {
        const withDup = t.length === 0 ? t : [...t, ...t.slice((dup % (t.length / 3)) * 3, (dup % (t.length / 3)) * 3 + 3)];
        expect([...maskOf(withDup)]).toEqual([...reference(withDup)]);
        // the same positions visited (twice) instead of listed
        const visit = (emit: (x: number, y: number, z: number) => void) => {
          for (let i = 0; i < withDup.length; i += 3) emit(withDup[i]!, withDup[i + 1]!, withDup[i + 2]!);
        };
        const visited = maskOfVisits(visit, withDup.length / 3);
        expect([...visited.mask]).toEqual([...reference(withDup)]);
        for (let i = 0; i < withDup.length; i += 3) expect(visited.set.has(withDup[i]!, withDup[i + 1]!, withDup[i + 2]!)).toBe(true);
        expect(visited.set.has(30_000_001, 0, 0)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("PositionSet answers as a set of strings would", () => {
    fc.assert(
      fc.property(triples, fc.array(fc.tuple(coord, fc.integer({ min: -64, max: 319 }), coord), { maxLength: 50 }), (t, queries) => {
        const set = PositionSet.of(t);
        const fromMask = PositionSet.ofMask(maskOf(t));
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
