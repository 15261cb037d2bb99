import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ApplyCommand,
  CrashDuringApplyCommand,
  ExternalEditCommand,
  Harness,
  NamedApplyCommand,
  PrepareCommand,
  RecoverCommand,
  UndoCommand,
  emptyModel,
} from "../src/index.js";

type Step = fc.AsyncCommand<ReturnType<typeof emptyModel>, Harness>;

/**
 * Counterexamples found while building the suite, replayed as fixed command sequences. Unlike
 * `fc.asyncModelRun`, which skips a command whose `check` is false, a replay runs every step or
 * fails: a regression test that no longer reaches the step it is named after says so.
 */
async function replay(commands: readonly Step[]): Promise<void> {
  const h = await Harness.create({ limits: { sliceSize: 2 } });
  const model = emptyModel();
  try {
    for (const [i, c] of commands.entries()) {
      if (!c.check(model))
        throw new Error(`step ${i + 1} of ${commands.length}, ${c.toString()}, cannot run here (its check is false): the replay no longer tests it`);
      await c.run(model, h);
    }
  } finally {
    h.close();
  }
}

describe("model suite regressions", () => {
  it("a replay fails when one of its steps cannot run (a planted check that is false: the crash of seed 284746488 skipped)", async () => {
    class Skipped extends CrashDuringApplyCommand {
      override check(): boolean {
        return false;
      }
    }
    await expect(replay([new PrepareCommand(0, 0, "minecraft:air", 0), new Skipped(0, "read", 0)])).rejects.toThrow(
      "step 2 of 2, apply+crash(plan 0 at read #0), cannot run here (its check is false): the replay no longer tests it",
    );
    // and so does fast-check's own runner not: it skips the step and passes
    const h = await Harness.create({ limits: { sliceSize: 2 } });
    try {
      await fc.asyncModelRun(() => ({ model: emptyModel(), real: h }), [new PrepareCommand(0, 0, "minecraft:air", 0), new Skipped(0, "read", 0)]);
    } finally {
      h.close();
    }
  });

  it("seed 284746488: a plan with only a dependency is refused as empty (it used to read, and crash, in its precheck)", async () => {
    await replay([new PrepareCommand(0, 0, "minecraft:air", 0), new CrashDuringApplyCommand(0, "read", 0)]);
  });

  it("ABA: an edit that restores our block still revokes undo", async () => {
    await replay([
      new PrepareCommand(0, 5, "minecraft:stone"),
      new ApplyCommand(0),
      new ExternalEditCommand(2, "minecraft:glass", true),
      new ExternalEditCommand(2, "minecraft:stone", true),
      new UndoCommand(0),
    ]);
  });

  it("a duplicate plan cannot write back a block the player broke after the first one was built", async () => {
    await replay([
      new PrepareCommand(0, 5, "minecraft:stone"),
      new PrepareCommand(0, 5, "minecraft:stone"),
      new ApplyCommand(1),
      new ExternalEditCommand(2, "minecraft:air", true),
      new ApplyCommand(0),
    ]);
  });

  it("twenty concurrent applies of one plan under twenty keys create one operation", async () => {
    await replay([new PrepareCommand(0, 5, "minecraft:stone"), new ApplyCommand(0, 19)]);
  });

  it("keep my windows: a rebuild keeps a person's block, a redesign of it is refused, then kept or replaced only as asked", async () => {
    await replay([
      new PrepareCommand(0, 5, "minecraft:stone"),
      new ApplyCommand(0),
      new ExternalEditCommand(2, "minecraft:glass", true), // the person's window
      new ExternalEditCommand(4, "minecraft:dirt", false), // and an edit no event reported (found by content)
      new PrepareCommand(0, 5, "minecraft:stone"), // the same design again: both kept, nothing to write
      new PrepareCommand(0, 5, "minecraft:bricks"), // a redesign over them: refused
      new PrepareCommand(0, 5, "minecraft:dirt", null, "keep"),
      new ApplyCommand(0),
      new PrepareCommand(0, 5, "minecraft:air", null, "replace"),
      new ApplyCommand(0),
    ]);
  });

  it("a read crash's unfinished slice is not a confirmed write: after abandon, undo has nothing of it to restore (seed 1349822525 family)", async () => {
    await replay([new PrepareCommand(1, 5, "minecraft:glass", 0), new CrashDuringApplyCommand(0, "read", 4), new RecoverCommand(), new UndoCommand(0)]);
  });

  it("abandoned recovery revokes earlier ownership over the unfinished slice's mask", async () => {
    await replay([
      new PrepareCommand(0, 5, "minecraft:stone"),
      new ApplyCommand(0),
      new PrepareCommand(0, 5, "minecraft:glass"),
      new CrashDuringApplyCommand(0, "mid_slice", 1),
      new RecoverCommand(),
      new UndoCommand(1),
    ]);
  });

  it("seed -782568611: undoing a part's growth gives back no block the part still holds (it was in two parts at once)", async () => {
    await replay([
      new PrepareCommand(0, 0, "minecraft:stone", 0),
      new NamedApplyCommand(0, 1, false),
      new PrepareCommand(0, 0, "minecraft:air", 0),
      new NamedApplyCommand(0, 0, true),
      new PrepareCommand(0, 1, "minecraft:glass", null, "keep"),
      new NamedApplyCommand(0, 0, false),
      new UndoCommand(0),
    ]);
  });

  /** Seed -1856351466's start: part a of two blocks; part b takes one of them over, is undone and redone. */
  const takenOverAndRedone = (): Step[] => [
    new PrepareCommand(1, 0, "minecraft:dirt", null, "keep"),
    new NamedApplyCommand(0, 0, false),
    new PrepareCommand(4, 1, "minecraft:air"),
    new NamedApplyCommand(0, 1, true),
    new UndoCommand(0),
    new UndoCommand(0), // the redo
  ];

  it("seed -1856351466: a redone operation's blocks stay in its part when the part's later growth is undone", async () => {
    await replay([
      ...takenOverAndRedone(),
      new PrepareCommand(0, 1, "minecraft:glass", null, "keep"),
      new NamedApplyCommand(0, 1, true), // part b grows over a's last block
      new UndoCommand(0),
    ]);
  });

  it("seed -1856351466, shrunk again: the undo of a redo undoes the operation again, in the parts too", async () => {
    await replay([
      ...takenOverAndRedone(),
      new UndoCommand(0), // the redo's undo: b's blocks leave it again, a's come back
      new PrepareCommand(0, 1, "minecraft:air", null, "keep"),
      new NamedApplyCommand(0, 1, true),
      new UndoCommand(0),
    ]);
  });
});
