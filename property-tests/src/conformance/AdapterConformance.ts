import type { CasSlice, WorldAdapter } from "@mcb/engine";
import fc from "fast-check";

/**
 * The WorldAdapter contract as properties, runnable against any adapter through a driver that can
 * also edit the world from outside (a player, another plugin). Memory always; a live server when
 * a driver for it is given.
 */
export interface AdapterDriver {
  readonly adapter: WorldAdapter;
  /** Changes a block outside the engine; `withEvent` false for a path the adapter cannot observe. */
  edit(x: number, y: number, z: number, state: string, withEvent: boolean): Promise<void>;
  close(): Promise<void>;
}

const Y = 64;
const STATES = ["minecraft:air", "minecraft:stone", "minecraft:glass", "minecraft:dirt"];
const state = fc.constantFrom(...STATES);

interface SliceStep {
  checks: { x: number; z: number; state: string }[];
  writes: { x: number; z: number; before: string; after: string }[];
  cuts: number[];
}

type Step = { kind: "edit"; x: number; z: number; state: string; event: boolean } | ({ kind: "cas" } & SliceStep) | { kind: "batch"; slices: SliceStep[] };

const sliceStep: fc.Arbitrary<SliceStep> = fc.record({
  checks: fc.array(fc.record({ x: fc.integer({ min: 0, max: 3 }), z: fc.integer({ min: 0, max: 1 }), state }), { maxLength: 2 }),
  writes: fc.uniqueArray(fc.record({ x: fc.integer({ min: 0, max: 3 }), z: fc.integer({ min: 0, max: 1 }), before: state, after: state }), {
    maxLength: 6,
    selector: (w) => `${w.x},${w.z}`,
  }),
  cuts: fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 3 }),
});

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("edit" as const), x: fc.integer({ min: 0, max: 3 }), z: fc.integer({ min: 0, max: 1 }), state, event: fc.boolean() }),
  sliceStep.map((s) => ({ kind: "cas" as const, ...s })),
  fc.record({ kind: fc.constant("batch" as const), slices: fc.array(sliceStep, { minLength: 1, maxLength: 4 }) }),
);

function sliceOf(s: SliceStep): CasSlice {
  return {
    checks: s.checks.map((c) => ({ x: c.x, y: Y, z: c.z, state: c.state, digest: null })),
    writes: s.writes.map((w) => ({ x: w.x, y: Y, z: w.z, before: w.before, beforeDigest: null, after: w.after })),
    groupEnds: groupEnds(s.writes.length, s.cuts),
  };
}

/**
 * The contract of one slice on the model (a Map): checks first (any mismatch writes nothing), then
 * groups in order, the first failing group and everything after it not written. Returns the written
 * prefix and the mismatches as `kind:index`.
 */
function modelSlice(model: Map<string, string>, s: SliceStep): { written: number; mismatches: string[] } {
  const at = (x: number, z: number): string => model.get(`${x},${z}`) ?? "minecraft:air";
  const badChecks = s.checks.map((c, i) => ({ c, i })).filter(({ c }) => at(c.x, c.z) !== c.state);
  if (badChecks.length > 0) return { written: 0, mismatches: badChecks.map(({ i }) => `check:${i}`) };
  let written = 0;
  let start = 0;
  for (const end of groupEnds(s.writes.length, s.cuts)) {
    const bad = s.writes
      .slice(start, end)
      .map((w, k) => ({ w, k: start + k }))
      .filter(({ w }) => at(w.x, w.z) !== w.before);
    if (bad.length > 0) return { written, mismatches: bad.map(({ k }) => `write:${k}`) };
    for (const w of s.writes.slice(start, end)) model.set(`${w.x},${w.z}`, w.after);
    written = end;
    start = end;
  }
  return { written, mismatches: [] };
}

function groupEnds(n: number, cuts: number[]): number[] {
  const ends = [...new Set(cuts.filter((c) => c < n)), n].sort((a, b) => a - b);
  return n === 0 ? [] : ends;
}

/**
 * Property: for random interleavings of external edits and compare-and-set slices over a tiny
 * arena, the adapter behaves like a Map: checks are verified first (any mismatch writes nothing),
 * groups are verified and written in order, the first failing group and everything after it is
 * not written, `written` is the exact prefix, reads are in (y, z, x) order, and events list exactly
 * the observable external edits after a cursor. An adapter with `compareAndSetBatch` runs a batch's
 * slices in order as single calls would and stops after the first slice with mismatches. With
 * `planted` (a run that must fail) it stops at the first counterexample instead of shrinking it.
 */
export async function checkAdapterConformance(
  makeDriver: () => Promise<AdapterDriver>,
  numRuns = 100,
  options: { readonly planted?: boolean } = {},
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
      const d = await makeDriver();
      try {
        const model = new Map<string, string>();
        const at = (x: number, z: number): string => model.get(`${x},${z}`) ?? "minecraft:air";
        let cursor = (await d.adapter.events(null)).cursor;
        for (const s of steps) {
          if (s.kind === "edit") {
            await d.edit(s.x, Y, s.z, s.state, s.event);
            model.set(`${s.x},${s.z}`, s.state);
            const page = await d.adapter.events(cursor);
            const expected = s.event ? [{ x: s.x, y: Y, z: s.z, state: s.state }] : [];
            if (page.gap || JSON.stringify(page.events.map(({ x, y, z, state }) => ({ x, y, z, state }))) !== JSON.stringify(expected))
              throw new Error(`events after an edit: ${JSON.stringify(page)}, expected ${JSON.stringify(expected)}`);
            cursor = page.cursor;
            continue;
          }
          if (s.kind === "batch" && d.adapter.compareAndSetBatch !== undefined) {
            // Slices in order, as one call each would run; the batch stops after the first with mismatches.
            const r = await d.adapter.compareAndSetBatch(s.slices.map(sliceOf));
            let stopAt = -1;
            for (const [k, sl] of s.slices.entries()) {
              const want = modelSlice(model, sl);
              const got = r.results[k];
              if (got === undefined) throw new Error(`batch: slice ${k} did not run, the contract says it does`);
              if (got.written !== want.written) throw new Error(`batch slice ${k}: written ${got.written}, contract says ${want.written}`);
              const kinds = got.mismatches.map((m) => `${m.kind}:${m.index}`);
              if (JSON.stringify(kinds) !== JSON.stringify(want.mismatches))
                throw new Error(`batch slice ${k}: mismatches ${JSON.stringify(kinds)}, contract says ${JSON.stringify(want.mismatches)}`);
              if (want.mismatches.length > 0) {
                stopAt = k;
                break;
              }
            }
            const ran = stopAt < 0 ? s.slices.length : stopAt + 1;
            if (r.results.length !== ran) throw new Error(`batch ran ${r.results.length} slices, the contract says ${ran}`);
            if (stopAt < 0 ? r.stopped !== undefined : r.stopped?.reason !== "mismatch" || r.stopped.slice !== stopAt)
              throw new Error(`batch stop ${JSON.stringify(r.stopped)}, the contract says ${stopAt}`);
          } else {
            const one = s.kind === "batch" ? s.slices[0]! : s;
            const r = await d.adapter.compareAndSet(sliceOf(one));
            const want = modelSlice(model, one);
            if (r.written !== want.written) throw new Error(`written ${r.written}, contract says ${want.written}`);
            const kinds = r.mismatches.map((m) => `${m.kind}:${m.index}`);
            if (JSON.stringify(kinds) !== JSON.stringify(want.mismatches))
              throw new Error(`mismatches ${JSON.stringify(kinds)}, contract says ${JSON.stringify(want.mismatches)}`);
          }
          const read = await d.adapter.read({ minX: 0, minY: Y, minZ: 0, maxX: 3, maxY: Y, maxZ: 1 });
          const seen = [...read.states].map((i) => read.palette[i]);
          const want = [0, 1].flatMap((z) => [0, 1, 2, 3].map((x) => at(x, z)));
          if (JSON.stringify(seen) !== JSON.stringify(want)) throw new Error(`read ${JSON.stringify(seen)}, model ${JSON.stringify(want)}`);
          // Our own writes are not external events.
          const page = await d.adapter.events(cursor);
          if (page.events.length !== 0) throw new Error("compare-and-set writes were reported as external events");
          cursor = page.cursor;
        }
      } finally {
        await d.close();
      }
    }),
    { numRuns, endOnFailure: options.planted === true }, // a planted bug only has to be caught: no shrinking
  );
}
