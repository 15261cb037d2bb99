import { Interner } from "@mcb/blocks";
import type { PlanContent } from "../core/PreparedPlan.js";
import { pairMultipart, partnerOf } from "./Multipart.js";

export type PlanMeta = Pick<PlanContent, "projectId" | "kind" | "undoOf" | "partId" | "worldId" | "epoch" | "sourceHash" | "unchanged" | "filtered">;

/** Accumulates a prepared plan's write set (in plan order) and dependencies into interned arrays. */
export class WriteSetBuilder {
  private readonly states = new Interner();
  private readonly digests = new Interner();
  private readonly pos: number[] = [];
  private readonly before: number[] = [];
  private readonly beforeDigest: number[] = [];
  private readonly after: number[] = [];
  private readonly afterData: number[] = [];
  private readonly data: Uint8Array[] = [];
  private depPos: Int32Array = new Int32Array(0);
  private depState: Uint32Array = new Uint32Array(0);
  private depDigest: Int32Array = new Int32Array(0);
  private lastBefore: string | null = null;
  private lastBeforeId = 0;
  private lastAfter: string | null = null;
  private lastAfterId = 0;

  /** `afterData`: block-entity data placed with the block (null: none given, the world's defaults). */
  add(x: number, y: number, z: number, before: string, beforeDigest: string | null, after: string, afterData: Uint8Array | null = null): void {
    this.pos.push(x, y, z);
    // Neighbouring positions mostly share their states: the last two looked up are kept.
    if (before !== this.lastBefore) ((this.lastBefore = before), (this.lastBeforeId = this.states.id(before)));
    if (after !== this.lastAfter) ((this.lastAfter = after), (this.lastAfterId = this.states.id(after)));
    this.before.push(this.lastBeforeId);
    this.beforeDigest.push(this.digest(beforeDigest));
    this.after.push(this.lastAfterId);
    this.afterData.push(afterData === null ? -1 : this.data.push(afterData) - 1);
  }

  /** Positions (x, y, z triples) as added so far. */
  positions(): readonly number[] {
    return this.pos;
  }

  /** Dependencies with the states and digests they must keep. */
  setDependencies(pos: Int32Array, states: readonly string[], digests: readonly (string | null)[]): void {
    this.depPos = pos;
    this.depState = Uint32Array.from(states, (s) => this.states.id(s));
    this.depDigest = Int32Array.from(digests, (d) => this.digest(d));
  }

  /** The content, with each multi-block pair made adjacent (see `pairMultipart`). */
  build(meta: PlanMeta): PlanContent {
    const st = this.states.values;
    // Pairing only runs when the plan has multi-block states; otherwise plan order is kept.
    const { order, pairStarts } = st.some((x) => partnerOf(x) !== null)
      ? pairMultipart(
          this.pos,
          this.before.map((b) => st[b]!),
          this.after.map((a) => st[a]!),
        )
      : { order: null, pairStarts: [] };
    const n = this.before.length;
    const pos = new Int32Array(n * 3);
    const before = new Uint32Array(n),
      beforeDigest = new Int32Array(n),
      after = new Uint32Array(n),
      afterData = new Int32Array(n);
    // Typed copies without an object per position (a 100,000-block tile is built in a few ms).
    for (let k = 0; k < n; k++) {
      const i = order === null ? k : order[k]!;
      pos[k * 3] = this.pos[i * 3]!;
      pos[k * 3 + 1] = this.pos[i * 3 + 1]!;
      pos[k * 3 + 2] = this.pos[i * 3 + 2]!;
      before[k] = this.before[i]!;
      beforeDigest[k] = this.beforeDigest[i]!;
      after[k] = this.after[i]!;
      afterData[k] = this.afterData[i]!;
    }
    return {
      ...meta,
      states: st,
      digests: this.digests.values,
      pos,
      before,
      beforeDigest,
      after,
      afterData,
      data: this.data,
      pairs: Uint32Array.from(pairStarts),
      depPos: this.depPos,
      depState: this.depState,
      depDigest: this.depDigest,
    };
  }

  private digest(d: string | null): number {
    return d === null ? -1 : this.digests.id(d);
  }
}
