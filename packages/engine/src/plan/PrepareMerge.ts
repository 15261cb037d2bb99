import { createHash } from "node:crypto";
import { blockIdOf, mcbError, posKey, type McbError, type Vec3 } from "@mcb/blocks";
import type { NeighbourUpdate } from "./Connections.js";
import { ManualEditTally, mergeOutcome, type ManualEditsView } from "../merge/ManualEdits.js";
import { SAMPLE, type EditResolution, type ExpectedBlock } from "./PrepareInput.js";
import { TOUCHED, type StandingIndex } from "../merge/StandingIndex.js";
import type { WriteSetBuilder } from "./WriteSet.js";

/** One position of the plan as the merge sees it (one object, refilled per position by the caller). */
export interface MergeTarget {
  x: number;
  y: number;
  z: number;
  /** The world now (C) and its block-entity digest. */
  current: string;
  digest: string | null;
  /** The new design (G1) after filters and connections; undefined when a filter leaves the position. */
  desired: string | undefined;
  /** Block-entity data the plan writes there, or null. */
  data: Uint8Array | null;
  /** The standing-index entry of the position (G0 and whether a person touched it). */
  entry: number;
  /** What `expected_blocks` says about it, if given. */
  expected: ExpectedBlock | undefined;
}

/**
 * The three-way merge of a prepare, position by position in plan order (docs/DESIGN.md "People's
 * edits: the three-way merge"): each position is unchanged, filtered, written, or a person's edit
 * kept, refused or replaced; the neighbours that connections would join are added in plan order
 * unless a person edited them. Then `refusal()` gives the first reason the plan cannot be
 * prepared, in a fixed order, and `manualEdits()` what was kept or replaced.
 */
export class PrepareMerge {
  unchanged = 0;
  filtered = 0;
  private readonly tally: ManualEditTally;
  private readonly replaced = new Set<string>();
  private readonly stale: unknown[] = [];
  private staleCount = 0;
  private readonly missingDigest: Vec3[] = [];
  private readonly entityLoss: unknown[] = [];
  private entityLossCount = 0;
  private nb = 0;

  constructor(
    private readonly index: StandingIndex,
    private readonly resolution: EditResolution,
    private readonly neighbours: readonly NeighbourUpdate[],
    /** Notes for the caller; the merge adds one per neighbour left as a person made it. */
    readonly notes: string[],
    private readonly out: WriteSetBuilder,
    conflictSampleSize: number,
  ) {
    this.tally = new ManualEditTally(conflictSampleSize);
  }

  /** Decides one position (call in plan order; `t` is not kept). */
  position(t: Readonly<MergeTarget>): void {
    const { x, y, z, current: c, digest: dc, desired: d, data } = t;
    this.checkExpected(t);
    if (d === undefined) {
      this.filtered++;
      return;
    }
    const g0 = this.index.standing(t.entry);
    const outcome = mergeOutcome(g0, (t.entry & TOUCHED) !== 0, { state: c, digest: dc }, { state: d, dataDigest: data === null ? null : sha256(data) });
    if (outcome === "unchanged") {
      this.unchanged++;
      return;
    }
    if (outcome !== "write") {
      // A person's edit: kept (the design there is unchanged, or on_manual_edit "keep"), refused,
      // or written over because the owner named it in replace.
      const edit = { pos: { x, y, z }, expected: g0?.state ?? null, actual: c, new: d };
      const key = posKey(x, y, z);
      if (this.resolution.replace?.has(key) === true) {
        this.replaced.add(key);
        this.tally.replace(edit, outcome === "conflict");
      } else {
        if (outcome === "kept" || this.resolution.policy === "keep") this.tally.keep(edit, outcome === "conflict");
        else this.tally.refuse(edit);
        return;
      }
    }
    // Existing block-entity data is never destroyed: not by another block, not by other data (undo
    // could not bring it back: the journal keeps its digest, not the data).
    if (dc !== null && (blockIdOf(c) !== blockIdOf(d) || data !== null)) {
      this.entityLossCount++;
      if (this.entityLoss.length < SAMPLE)
        this.entityLoss.push({ pos: { x, y, z }, current: c, desired: d, ...(data === null ? {} : { replaces_data: true }) });
      return;
    }
    this.neighboursBefore(x, y, z);
    this.out.add(x, y, z, c, dc, d, data);
  }

  /** After the last position: the neighbours that sort after every position of the plan. */
  finish(): void {
    this.neighboursBefore(Infinity, Infinity, Infinity);
  }

  private checkExpected(t: Readonly<MergeTarget>): void {
    const want = t.expected;
    if (want === undefined) return;
    const { x, y, z } = t;
    if (t.digest !== null && want.snapshot_id === undefined) {
      if (this.missingDigest.length < SAMPLE) this.missingDigest.push({ x, y, z });
    } else if (want.state !== t.current || (want.snapshot_id ?? null) !== t.digest) {
      this.staleCount++;
      if (this.stale.length < SAMPLE) this.stale.push({ pos: { x, y, z }, expected: want.state, actual: t.current, data_changed: want.state === t.current });
    }
  }

  /** Adds the existing neighbours that sort before (x, y, z): plan order is kept. */
  private neighboursBefore(x: number, y: number, z: number): void {
    // A neighbour joining back is our side effect: never written where a person edited the block.
    for (; this.nb < this.neighbours.length; this.nb++) {
      const u = this.neighbours[this.nb]!;
      if ((u.y - y || u.z - z || u.x - x) >= 0) return;
      const e = this.index.entryAt(u.x, u.y, u.z);
      if (mergeOutcome(this.index.standing(e), (e & TOUCHED) !== 0, { state: u.before, digest: u.digest }, { state: u.after, dataDigest: null }) === "write")
        this.out.add(u.x, u.y, u.z, u.before, u.digest, u.after);
      else this.notes.push(`${u.before} at ${u.x} ${u.y} ${u.z} was placed or changed by hand: it keeps its connections (not joined to the build)`);
    }
  }

  /** The first reason the merged plan cannot be prepared, or null. */
  refusal(maxPlanBlocks: number): McbError | null {
    if (this.out.positions().length / 3 > maxPlanBlocks)
      return mcbError(
        "budget_exceeded",
        `with ${this.neighbours.length} existing neighbours joining it the plan changes more than ${maxPlanBlocks} blocks; split it`,
        { limit: maxPlanBlocks },
      );
    if (this.missingDigest.length > 0)
      return mcbError("invalid_request", "expected_blocks omits the snapshot_id of a block entity; copy it from region_inspect", {
        reason: "missing_snapshot_id",
        sample: this.missingDigest,
      });
    if (this.staleCount > 0)
      return mcbError("stale_snapshot", `${this.staleCount} expected blocks changed since they were inspected`, { count: this.staleCount, sample: this.stale });
    if (this.entityLossCount > 0)
      return mcbError("unsupported_block", `${this.entityLossCount} positions hold block-entity data that the plan would destroy`, {
        reason: "block_entity_data",
        count: this.entityLossCount,
        sample: this.entityLoss,
      });
    const replace = this.resolution.replace;
    if (replace !== null && this.replaced.size < replace.size) {
      const extra = [...replace.keys()].filter((k) => !this.replaced.has(k));
      return mcbError(
        "invalid_request",
        `replace names ${extra.length} positions where this plan meets no person's edit; name only positions a conflict or manual_edits listed`,
        {
          reason: "replace_not_manual_edit",
          count: extra.length,
          sample: extra.slice(0, SAMPLE).map((k) => replace.get(k)!),
        },
      );
    }
    const refused = this.tally.refusedCount;
    if (refused > 0)
      return mcbError(
        "conflict",
        `${refused === 1 ? "1 block" : `${refused} blocks`} of this plan ${refused === 1 ? "was" : "were"} changed by hand (after we built there, or where we never built) and the new design differs; nothing was prepared. Keep them (on_manual_edit: "keep"), change the design, or, only if the owner says so, name them in replace`,
        this.tally.refusal(),
      );
    return null;
  }

  manualEdits(): ManualEditsView {
    return this.tally.view();
  }
}

function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
