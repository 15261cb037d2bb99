import { coverBoxes } from "./BoxCover.js";
import { type Box3, boxJson, type Vec3 } from "@mcb/blocks";

/**
 * The three-way merge at preparation, across rebuilds. For one position of a new plan:
 * G0 = the state our newest standing write left there (null: we never wrote it), `touched` = a
 * person changed the block after that write (with no G0: at all, since the journal began), C = the
 * world now, G1 = the new design.
 *
 * - C = G1: nothing to write (`unchanged`);
 * - no G0 and not touched: today's rule, write G1 (`write`);
 * - C = G0 and not touched (nobody touched our block): write G1 (`write`);
 * - otherwise the block is a person's edit: kept when the new design does not change our block
 *   there (G1 = G0, `kept`), else a conflict found in advance (`conflict`), never written unless
 *   the owner names the position in `replace`.
 *
 * An edit that put back exactly our block still counts as the person's (`touched`): the rule is
 * "a position a person edited after our write is never written by a later plan unless `replace`
 * lists it", not a guess from content alone.
 */
export type MergeOutcome = "unchanged" | "write" | "kept" | "conflict";

/** A block state with its block-entity digest (null: no block entity). */
export interface Held {
  readonly state: string;
  readonly digest: string | null;
}

/** The new design at a position: its state and, when the plan places block data, that data's digest. */
export interface Designed {
  readonly state: string;
  /** Null: the plan places no data (the block keeps or gets the world's own). */
  readonly dataDigest: string | null;
}

export function mergeOutcome(g0: Held | null, touched: boolean, c: Held, g1: Designed): MergeOutcome {
  if (c.state === g1.state && (g1.dataDigest === null || g1.dataDigest === c.digest)) return "unchanged";
  if (!touched && (g0 === null || (c.state === g0.state && c.digest === g0.digest))) return "write";
  if (g0 !== null && g1.state === g0.state && (g1.dataDigest === null || g1.dataDigest === g0.digest)) return "kept";
  return "conflict";
}

/** `on_manual_edit`: refuse the plan when the new design differs from a person's edit (default), or keep the edit. */
export type ManualEditPolicy = "refuse" | "keep";

export interface ManualEditSample {
  readonly pos: Vec3;
  /** What our newest standing write left there (null: we never wrote it). */
  readonly expected: string | null;
  /** What the world holds now (the person's edit). */
  readonly actual: string;
  /** What the new design wants there. */
  readonly new: string;
}

/** `manual_edits` of a prepared plan. */
export interface ManualEditsView {
  /** Positions left as a person made them: the design there is ours unchanged, or `on_manual_edit: "keep"`. */
  readonly kept: number;
  /** Positions where the new design also changes our earlier block under a person's edit (each kept or replaced). */
  readonly conflicts: number;
  /** People's edits written over because `replace` named them (an explicit owner decision). */
  readonly replaced: number;
  /** Bounded sample of kept and replaced positions. */
  readonly sample: readonly (ManualEditSample & { readonly outcome: "kept" | "replaced" })[];
}

export const NO_MANUAL_EDITS: ManualEditsView = { kept: 0, conflicts: 0, replaced: 0, sample: [] };

/** At most this many boxes in a conflict report (the exact count is always given). */
export const MAX_REPORT_BOXES = 16;

/** Accumulates the merge's decisions over one preparation: counts, samples and the conflict set. */
export class ManualEditTally {
  kept = 0;
  conflicts = 0;
  replaced = 0;
  private readonly sample: (ManualEditSample & { outcome: "kept" | "replaced" })[] = [];
  /** Refused conflicts (x, y, z triples) and their sample. */
  private readonly refused: number[] = [];
  private readonly refusedSample: ManualEditSample[] = [];

  constructor(private readonly sampleSize: number) {}

  keep(s: ManualEditSample, conflict: boolean): void {
    this.kept++;
    if (conflict) this.conflicts++;
    if (this.sample.length < this.sampleSize) this.sample.push({ ...s, outcome: "kept" });
  }

  replace(s: ManualEditSample, conflict: boolean): void {
    if (conflict) this.conflicts++;
    this.replaced++;
    if (this.sample.length < this.sampleSize) this.sample.push({ ...s, outcome: "replaced" });
  }

  refuse(s: ManualEditSample): void {
    this.refused.push(s.pos.x, s.pos.y, s.pos.z);
    if (this.refusedSample.length < this.sampleSize) this.refusedSample.push(s);
  }

  get refusedCount(): number {
    return this.refused.length / 3;
  }

  view(): ManualEditsView {
    return { kept: this.kept, conflicts: this.conflicts, replaced: this.replaced, sample: this.sample };
  }

  /** Details of the `conflict` refusal: exact count, compact boxes, a sample, how to resolve it. */
  refusal(): Record<string, unknown> {
    const boxes = coverBoxes(this.refused);
    return {
      reason: "manual_edits",
      count: this.refusedCount,
      boxes: boxes.slice(0, MAX_REPORT_BOXES).map((b: Box3) => boxJson(b)),
      boxes_truncated: boxes.length > MAX_REPORT_BOXES,
      sample: this.refusedSample,
      resolutions: [
        "change the design so it leaves these blocks as they are",
        'on_manual_edit: "keep" (write everything else, leave these as the person made them)',
        "replace: [positions] (only after the owner decided to overwrite exactly these)",
      ],
    };
  }
}
