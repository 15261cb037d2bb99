import type fc from "fast-check";
import { unwrap, type Harness } from "../Harness.js";
import { assertWorld, expectEqual, note, remember, type Model } from "./Model.js";

/** The administrator reviews the unfinished operation and abandons it with the reviewed digest. */
export class RecoverCommand implements fc.AsyncCommand<Model, Harness> {
  check(m: Readonly<Model>): boolean {
    return m.pending !== null;
  }

  async run(m: Model, h: Harness): Promise<void> {
    const op = m.pending!;
    const review = unwrap(await h.engine.recoveryReview(h.admin, { operation_id: op.id }));
    const before = op.mask.filter((w) => m.world.get(w.key) === w.before).length;
    const after = op.mask.filter((w) => m.world.get(w.key) !== w.before && m.world.get(w.key) === w.after).length;
    expectEqual("review counts", [review.positions, review.matchesBefore, review.matchesAfter], [op.mask.length, before, after]);
    const done = unwrap(await h.engine.recoveryAbandon(h.admin, { operation_id: op.id, expected_digest: review.currentDigest }));
    // Undoable where confirmed writes exist (the finished slices); an abandon before any leaves nothing to undo.
    expectEqual("abandoned status", [done.status, done.undoable], ["failed", op.mask.length > op.unfinished.length]);
    // The unfinished slice's blocks that are in the world are reported, not left out of the counters.
    expectEqual("unconfirmed count", done.counters.unconfirmed, op.unfinished.filter((w) => m.world.get(w.key) === w.after).length);
    if (done.counters.unconfirmed > 0) note(m, "abandoned recovery reports unconfirmed writes");
    note(m, `recovery abandoned (${op.mask.length > 0 ? "non-empty" : "empty"} mask)`);
    // The unfinished slice is uncertain: no undo writes there any more, and the merge takes each
    // block as it is now (accepted where it holds the plan's base or result, a person's otherwise).
    // The finished slices stay confirmed writes of ours, undoable.
    for (const w of op.unfinished) {
      const now = m.world.get(w.key)!;
      m.owner.set(w.key, null);
      const accepted = now !== w.before && now !== w.after; // a foreign block, taken as a person's
      remember(m, w.key, now, accepted);
      if (!accepted) {
        m.g0.set(w.key, now);
        m.touched.delete(w.key);
      } else m.touched.add(w.key);
    }
    op.status = "failed";
    m.pending = null;
    assertWorld(m, h);
  }

  toString(): string {
    return "recover";
  }
}
