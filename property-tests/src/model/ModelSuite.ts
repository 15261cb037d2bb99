import { CRASH_POINTS } from "../Faults.js";
import type { Journal, SqlDb } from "@mcb/engine";
import fc from "fast-check";
import { Harness, type JournalKind } from "../Harness.js";
import { ApplyCommand } from "./ApplyCommand.js";
import { CancelDuringApplyCommand } from "./CancelDuringApplyCommand.js";
import { CrashDuringApplyCommand } from "./CrashDuringApplyCommand.js";
import { ExternalEditCommand } from "./ExternalEditCommand.js";
import { InspectCommand } from "./InspectCommand.js";
import { NamedApplyCommand } from "./NamedApplyCommand.js";
import { ARENA, SLICE_SIZE, STATES, emptyModel, type Model } from "./Model.js";
import { PrepareCommand, type EditPolicy } from "./PrepareCommand.js";
import { RecoverCommand } from "./RecoverCommand.js";
import { RestartCommand } from "./RestartCommand.js";
import { UndoCommand } from "./UndoCommand.js";

export interface ModelSuiteOptions {
  readonly numRuns: number;
  readonly seed?: number;
  readonly path?: string;
  readonly maxCommands?: number;
  readonly journal?: JournalKind;
  /** The world: memory (default) or a Minecraft save in a temporary folder (AnvilWorld). */
  readonly world?: "memory" | "anvil";
  /** Planted-bug variants swap in a faulty journal. */
  readonly journalFactory?: (db: SqlDb) => Journal;
  /** Receives outcome counts of every run (including shrinking). */
  readonly stats?: Map<string, number>;
  /** "parts": commands weighted toward named applies with take_over, undos and redos. */
  readonly focus?: "all" | "parts";
}

const n = ARENA.length - 1;

/** Prepare, named apply (with and without take_over), plain apply, people's edits, undo and redo, restart. */
function partCommands(maxCommands: number): fc.Arbitrary<Iterable<fc.AsyncCommand<Model, Harness>>> {
  const state = fc.constantFrom(...STATES);
  const named = fc.tuple(fc.nat(3), fc.nat(2), fc.boolean()).map(([i, n, t]) => new NamedApplyCommand(i, n, t));
  const taking = fc.tuple(fc.nat(3), fc.nat(2)).map(([i, n]) => new NamedApplyCommand(i, n, true));
  const undo = fc.nat(3).map((i) => new UndoCommand(i));
  return fc.commands(
    [
      fc.tuple(fc.nat(n), fc.nat(n), state).map(([a, b, s]) => new PrepareCommand(a, b, s)),
      fc.tuple(fc.nat(n), fc.nat(n), state).map(([a, b, s]) => new PrepareCommand(a, b, s)),
      fc.tuple(fc.nat(n), fc.nat(n), state, fc.constantFrom<EditPolicy>("keep", "replace")).map(([a, b, s, p]) => new PrepareCommand(a, b, s, null, p)),
      named,
      taking,
      fc.nat(3).map((i) => new ApplyCommand(i)),
      fc.tuple(fc.nat(n), state, fc.boolean()).map(([at, s, e]) => new ExternalEditCommand(at, s, e)),
      undo,
      fc.constant(new UndoCommand(0)),
      fc.constant(new UndoCommand(0)),
      fc.constant(new RestartCommand()),
    ],
    { maxCommands, size: "medium" },
  );
}

export function commandArbitrary(maxCommands: number, focus: "all" | "parts" = "all"): fc.Arbitrary<Iterable<fc.AsyncCommand<Model, Harness>>> {
  if (focus === "parts") return partCommands(maxCommands);
  const state = fc.constantFrom(...STATES);
  return fc.commands(
    [
      fc.tuple(fc.nat(n), fc.nat(n), state).map(([a, b, s]) => new PrepareCommand(a, b, s)),
      fc.tuple(fc.nat(n), fc.nat(n), state, fc.nat(n)).map(([a, b, s, d]) => new PrepareCommand(a, b, s, d)),
      fc.tuple(fc.nat(n), fc.nat(n), state, fc.constantFrom<EditPolicy>("keep", "replace")).map(([a, b, s, p]) => new PrepareCommand(a, b, s, null, p)),
      fc.nat(3).map((i) => new ApplyCommand(i)),
      fc.nat(3).map((i) => new ApplyCommand(i)),
      fc.tuple(fc.nat(3), fc.integer({ min: 1, max: 4 })).map(([i, d]) => new ApplyCommand(i, d)),
      fc.tuple(fc.nat(3), fc.nat(2), fc.boolean()).map(([i, n, t]) => new NamedApplyCommand(i, n, t)),
      fc.tuple(fc.nat(3), fc.nat(2)).map(([i, n]) => new NamedApplyCommand(i, n, true)),
      fc.tuple(fc.nat(3), fc.nat(2)).map(([i, k]) => new CancelDuringApplyCommand(i, k)),
      fc.tuple(fc.nat(3), fc.constantFrom(...CRASH_POINTS), fc.nat(5)).map(([i, p, s]) => new CrashDuringApplyCommand(i, p, s)),
      fc.tuple(fc.nat(n), state, fc.boolean()).map(([at, s, e]) => new ExternalEditCommand(at, s, e)),
      fc.tuple(fc.nat(n), state, fc.boolean()).map(([at, s, e]) => new ExternalEditCommand(at, s, e)),
      fc.nat(3).map((i) => new UndoCommand(i)),
      fc.nat(3).map((i) => new UndoCommand(i)),
      fc.constant(new RecoverCommand()),
      fc.constant(new RestartCommand()),
      fc.constant(new InspectCommand()),
    ],
    { maxCommands, size: "medium" },
  );
}

/**
 * The model-based suite: random command sequences over prepare (merged three ways with people's
 * edits: refused, kept or replaced) / apply / cancel / crash-and-restart / external edit / undo /
 * recovery on a real engine + memory world, each step checked against the model, and after every
 * apply the invariant that a person's block is never written over unless the plan named it in
 * replace. Rejects (throws fast-check's report, with seed and path) on the first divergence.
 */
export async function runModelSuite(options: ModelSuiteOptions): Promise<void> {
  await fc.assert(
    fc.asyncProperty(commandArbitrary(options.maxCommands ?? 30, options.focus), async (cmds) => {
      const h = await Harness.create({
        limits: { sliceSize: SLICE_SIZE },
        anvil: options.world === "anvil",
        ...(options.journal === undefined ? {} : { journal: options.journal }),
        ...(options.journalFactory === undefined ? {} : { journalFactory: options.journalFactory }),
      });
      try {
        await fc.asyncModelRun(() => ({ model: emptyModel(options.stats), real: h }), cmds);
      } finally {
        h.close();
      }
    }),
    {
      numRuns: options.numRuns,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.path === undefined ? {} : { path: options.path }),
    },
  );
}
