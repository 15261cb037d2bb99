import type { Harness } from "../Harness.js";
import { expectEqual, note, type Model, type ModelOp, type ModelPart } from "./Model.js";

/**
 * The part rules in model terms (docs/DESIGN.md "Parts"): active parts never share a block; a
 * part named with take_over takes the blocks it shares with those parts; an undo takes the blocks
 * it restored out of the undone operation's part and gives taken blocks back to the parts they
 * came from (where no other active part holds them); a redo takes them again.
 */
export function active(m: Model): ModelPart[] {
  return m.parts.filter((p) => p.keys.size > 0);
}

function heldByOthers(m: Model, except: ModelPart): Set<string> {
  const held = new Set<string>();
  for (const o of active(m)) if (o !== except) for (const k of o.keys) held.add(k);
  return held;
}

/** A retired part whose name another active part now has cannot come back. */
function nameGone(m: Model, p: ModelPart): boolean {
  return p.keys.size === 0 && active(m).some((o) => o !== p && o.name === p.name);
}

/**
 * The blocks a finished operation confirmed become the part `name` (an active part of that name
 * grows by them), taking them from `takeOver` (never from itself).
 */
export function nameModelPart(m: Model, op: ModelOp, name: string, takeOver: readonly ModelPart[]): void {
  const keys = new Set(op.written.keys());
  const growing = active(m).find((p) => p.name === name);
  const part: ModelPart = growing ?? { name, ops: [], keys: new Set(), takenFrom: [] };
  for (const k of keys) part.keys.add(k);
  part.ops.push(op.id);
  for (const v of takeOver) {
    if (v === part) continue;
    const taken = new Set([...v.keys].filter((k) => keys.has(k)));
    if (taken.size === 0) continue;
    for (const k of taken) v.keys.delete(k);
    part.takenFrom.push({ from: v, keys: taken });
    note(m, v.keys.size === 0 ? "take over: a whole part" : "take over: some blocks");
  }
  if (growing === undefined) m.parts.push(part);
  else note(m, "a part grew");
}

/** Never undone, or its undo undone (a redo), and so on: an odd number of undos in the chain means undone. */
function standing(m: Model, op: ModelOp): boolean {
  let undos = 0;
  for (let o: ModelOp | undefined = op; o?.undoneBy != null; undos++) o = m.ops.find((x) => x.id === o!.undoneBy);
  return undos % 2 === 0;
}

/** The positions the part's operations other than `except` wrote, those not undone (a redone one counts). */
function writtenByOthers(m: Model, p: ModelPart, except: string): Set<string> {
  const out = new Set<string>();
  for (const id of p.ops) {
    if (id === except) continue;
    const o = m.ops.find((x) => x.id === id);
    if (o === undefined || !standing(m, o)) continue;
    for (const k of o.written.keys()) out.add(k);
  }
  return out;
}

/**
 * After an undo of `op` restored `restored`: those and the blocks of `op` the undo left because they
 * were no longer ours (`excluded`) leave its parts, except blocks the parts' other operations wrote.
 */
export function partsAfterModelUndo(m: Model, op: ModelOp, restored: ReadonlySet<string>, excluded: ReadonlySet<string> = new Set()): void {
  // Through undos of undos, the operation at the start: an odd number of undos undoes it, an even number redoes it.
  let base = op,
    undos = 1;
  while (base.undoOf !== undefined) ((base = base.undoOf), undos++);
  if (undos % 2 === 0) return redoModelParts(m, base, restored);
  for (const p of m.parts) {
    if (!p.ops.includes(base.id) || p.keys.size === 0) continue;
    const before = p.keys.size;
    const others = writtenByOthers(m, p, base.id);
    for (const k of [...restored, ...excluded]) if (!others.has(k)) p.keys.delete(k);
    if ([...excluded].some((k) => !others.has(k) && before > 0)) note(m, "undo left a person's block out of the part");
    if (p.keys.size === before) continue;
    if (p.ops.length > 1) note(m, "undo of a part's growth");
    const held = heldByOthers(m, p);
    for (const t of p.takenFrom) {
      if (nameGone(m, t.from)) continue;
      const back = [...t.keys].filter((k) => restored.has(k) && !held.has(k) && !t.from.keys.has(k) && !p.keys.has(k));
      back.forEach((k) => t.from.keys.add(k));
      if (back.length > 0) note(m, "undo gave taken blocks back");
    }
  }
  if (undos > 1) note(m, "undo of a redo");
}

/** After a redo of `original` restored `restored`: they come back to its parts, taken again where they had been given back. */
function redoModelParts(m: Model, original: ModelOp, restored: ReadonlySet<string>): void {
  note(m, "redo");
  for (const p of m.parts) {
    if (!p.ops.includes(original.id) || nameGone(m, p)) continue;
    for (const t of p.takenFrom) {
      if (t.from.keys.size === 0) continue;
      const again = [...t.keys].filter((k) => restored.has(k) && t.from.keys.has(k));
      again.forEach((k) => t.from.keys.delete(k));
      if (again.length > 0) note(m, "redo took blocks again");
    }
    const held = heldByOthers(m, p);
    for (const k of restored) if (!held.has(k)) p.keys.add(k);
  }
}

/** The engine's active parts equal the model's: the same names with the same blocks. */
export function assertParts(m: Model, h: Harness): void {
  const actual: Record<string, string[]> = {};
  for (const p of h.journal.listParts(h.agent.projectId)) {
    if (p.retired === true) continue;
    const keys: string[] = [];
    for (let i = 0; i < p.mask.length; i += 3) keys.push(`${p.mask[i]},${p.mask[i + 1]},${p.mask[i + 2]}`);
    actual[p.name] = keys.sort();
  }
  const expected: Record<string, string[]> = {};
  for (const p of active(m)) expected[p.name] = [...p.keys].sort();
  expectEqual("parts", Object.fromEntries(Object.entries(actual).sort()), Object.fromEntries(Object.entries(expected).sort()));
}
