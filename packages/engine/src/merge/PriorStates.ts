import { inBox, posKey } from "@mcb/blocks";
import { getBit } from "../core/BitMask.js";
import type { OperationJournal, TouchJournal } from "../store/Journal.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";

/** One state the journal knows a position held, in journal order. */
interface Known {
  readonly seq: number;
  readonly sub: number;
  readonly state: string;
}

/**
 * What the journal last knew a position to hold before a given change: our confirmed write there
 * (its result), what preparing one of our operations' plans read there (its base), or an observed
 * edit or an administrator's recorded state — the `before` of a person's change in
 * region_changes. Null only when the journal never knew the position (no plan of an operation
 * covered it, nothing was written or seen there): unknown, never a spelling of air. Positions are
 * looked up once and kept.
 */
export class PriorStates {
  private readonly history = new Map<string, Known[]>();

  constructor(
    private readonly journal: OperationJournal & TouchJournal,
    private readonly operationPlan: (operationId: string) => PreparedPlan,
  ) {}

  /** The state known at (x, y, z) just before the change at (seq, sub). */
  before(x: number, y: number, z: number, seq: number, sub: number): string | null {
    const list = this.of(x, y, z);
    let found: string | null = null;
    for (const k of list) {
      if (k.seq > seq || (k.seq === seq && k.sub >= sub)) break;
      found = k.state;
    }
    return found;
  }

  private of(x: number, y: number, z: number): Known[] {
    const key = posKey(x, y, z);
    let list = this.history.get(key);
    if (list !== undefined) return list;
    list = [];
    const box = { minX: x, minY: y, minZ: z, maxX: x, maxY: y, maxZ: z };
    for (const s of this.journal.slicesAfter(-1, box)) {
      const plan = this.operationPlan(s.operationId);
      for (let off = 0; off < s.end - s.start; off++) {
        const i = s.start + off;
        if (plan.pos[i * 3] !== x || plan.pos[i * 3 + 1] !== y || plan.pos[i * 3 + 2] !== z) continue;
        // What preparing the plan read there (its base), known from then on; then our write, if it was written.
        list.push({ seq: plan.preparedSeq, sub: -1, state: plan.states[plan.before[i]!]! });
        if (s.written !== null && getBit(s.written, off)) list.push({ seq: s.seq, sub: off, state: plan.states[plan.after[i]!]! });
      }
    }
    const t = this.journal.touchesAfter(-1, box);
    for (let k = 0; k < t.kinds.length; k++) {
      const state = t.states[k];
      if (state !== null && state !== undefined && inBox(box, t.quads[k * 4 + 1]!, t.quads[k * 4 + 2]!, t.quads[k * 4 + 3]!))
        list.push({ seq: t.quads[k * 4]!, sub: t.rows[k]!, state });
    }
    list.sort((a, b) => a.seq - b.seq || a.sub - b.sub);
    this.history.set(key, list);
    return list;
  }
}
