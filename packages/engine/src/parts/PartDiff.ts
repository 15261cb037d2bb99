import { coverBoxes } from "../merge/BoxCover.js";
import { MAX_REPORT_BOXES } from "../merge/ManualEdits.js";
import { TOUCHED, type StandingIndex } from "../merge/StandingIndex.js";
import type { WorldAdapter } from "../world/WorldAdapter.js";
import { readPositions } from "../world/WorldReader.js";
import { type Box3, boxJson, posKey, type Vec3 } from "@mcb/blocks";

/** One part's share of a diff over several parts or a box. */
export interface PartDiffShare {
  readonly part_id: string;
  readonly name: string;
  readonly positions: number;
  readonly changed: number;
  readonly observed: number;
}

export interface PartDiffView {
  readonly part_id: string | null;
  readonly operation_id: string | null;
  /** Over several parts or a box: each part's share (parts with positions compared only). */
  readonly parts?: readonly PartDiffShare[];
  /** Positions compared: the part's mask, or the operation's confirmed writes. */
  readonly positions: number;
  /** Positions where the world no longer holds our newest write, or a person changed the block after it. */
  readonly changed: number;
  /** Of `changed`: positions an observed edit (a player, `mcb edit`) touched; the rest were found by content. */
  readonly observed: number;
  /** A compact exact cover of the changed positions (at most 16 boxes; see `boxes_truncated`). */
  readonly boxes: readonly { readonly min: Vec3; readonly max: Vec3 }[];
  readonly boxes_truncated: boolean;
  /** Bounded sample: what we wrote there (expected) and what the world holds (actual). */
  readonly sample: readonly { readonly pos: Vec3; readonly expected: string; readonly actual: string; readonly observed: boolean }[];
  readonly observed_at: string;
}

/**
 * part_diff: where the world no longer holds what we wrote, over a set of positions we wrote
 * (a part's mask, an operation's confirmed writes). "What we wrote" is our newest standing write
 * at each position (a later operation of ours that rewrote a block is not a difference). A block a
 * person changed and changed back is reported too (observed), as the merge treats it.
 */
export async function partDiff(
  adapter: WorldAdapter,
  index: StandingIndex,
  target: { readonly partId: string | null; readonly operationId: string | null },
  pos: Int32Array,
  sampleSize: number,
  now: number,
  shares?: readonly { readonly part_id: string; readonly name: string; readonly keys: ReadonlySet<string> }[],
): Promise<PartDiffView> {
  const entries = index.entries(pos);
  const current = await readPositions(adapter, pos);
  const changed: number[] = [];
  const sample: PartDiffView["sample"][number][] = [];
  let observed = 0;
  for (let i = 0; i < pos.length / 3; i++) {
    const g0 = index.standing(entries[i]!);
    if (g0 === null) continue; // no write of ours is standing there (not for a mask of confirmed writes)
    const touched = (entries[i]! & TOUCHED) !== 0;
    const c = current.states[i]!;
    if (!touched && c === g0.state && current.digests[i] === g0.digest) continue;
    const x = pos[i * 3]!,
      y = pos[i * 3 + 1]!,
      z = pos[i * 3 + 2]!;
    changed.push(x, y, z);
    if (touched) observed++;
    if (sample.length < sampleSize) sample.push({ pos: { x, y, z }, expected: g0.state, actual: c, observed: touched });
  }
  const boxes: Box3[] = coverBoxes(changed);
  const parts = shares?.map((p) => {
    let changedHere = 0,
      observedHere = 0;
    for (let i = 0; i < changed.length; i += 3) if (p.keys.has(posKey(changed[i]!, changed[i + 1]!, changed[i + 2]!))) changedHere++;
    for (let i = 0; i < pos.length / 3; i++)
      if ((entries[i]! & TOUCHED) !== 0 && index.standing(entries[i]!) !== null && p.keys.has(posKey(pos[i * 3]!, pos[i * 3 + 1]!, pos[i * 3 + 2]!)))
        observedHere++;
    return { part_id: p.part_id, name: p.name, positions: [...p.keys].length, changed: changedHere, observed: observedHere };
  });
  return {
    part_id: target.partId,
    operation_id: target.operationId,
    ...(parts === undefined ? {} : { parts }),
    positions: pos.length / 3,
    changed: changed.length / 3,
    observed,
    boxes: boxes.slice(0, MAX_REPORT_BOXES).map(boxJson),
    boxes_truncated: boxes.length > MAX_REPORT_BOXES,
    sample,
    observed_at: new Date(now).toISOString(),
  };
}
