import { isSliceRefused, type CasBatchResult, type CasResult, type CasSlice } from "@mcb/engine";

/**
 * `compareAndSetBatch` for a world that runs slices one at a time (WorldAdapter): the slices in
 * order, each through `run`, the batch stopping after the first that meets a mismatch or is
 * refused (the slices after it never run); any other failure propagates. One call per window of
 * slices lets the engine journal the window's intents in one commit instead of one per slice.
 */
export async function casInOrder(slices: readonly CasSlice[], run: (slice: CasSlice) => Promise<CasResult>): Promise<CasBatchResult> {
  const results: CasResult[] = [];
  for (const [k, slice] of slices.entries()) {
    let r: CasResult;
    try {
      r = await run(slice);
    } catch (error) {
      if (!isSliceRefused(error)) throw error;
      return { results, stopped: { slice: k, reason: "refused", code: error.code, message: error.message } };
    }
    results.push(r);
    if (r.mismatches.length > 0) return { results, stopped: { slice: k, reason: "mismatch" } };
  }
  return { results };
}
