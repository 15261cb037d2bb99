import type { Harness } from "../Harness.js";

/**
 * The model of the model-based suite: deliberately much simpler than the engine. A Map over a
 * tiny arena (6 positions, 4 states) so commands collide; one "owner" per position standing for
 * "who may undo this block"; plans as lists of (position, base, desired).
 */

export const ARENA: readonly { readonly x: number; readonly y: number; readonly z: number }[] = [];
for (let z = 0; z < 2; z++) for (let x = 0; x < 3; x++) (ARENA as { x: number; y: number; z: number }[]).push({ x, y: 64, z });

export const STATES = ["minecraft:air", "minecraft:stone", "minecraft:glass", "minecraft:dirt"] as const;
export const SLICE_SIZE = 2;

export function key(p: { x: number; y: number; z: number }): string {
  return `${p.x},${p.y},${p.z}`;
}

export interface ModelWrite {
  readonly key: string;
  readonly before: string;
  readonly after: string;
}

export interface ModelPlan {
  readonly planId: string;
  readonly planHash: string;
  /** Positions where base ≠ desired at preparation, in plan order (y, z, x). */
  readonly writeSet: readonly ModelWrite[];
  /** People's edits the owner named in `replace`: the only ones this plan may write over. */
  readonly replaced: ReadonlySet<string>;
  /** Read dependencies (not in the write set) and the state each must keep. */
  readonly deps: readonly { readonly key: string; readonly state: string }[];
  /** `Model.clock` when it was prepared: later `history` entries happened after preparation. */
  readonly preparedAt: number;
  used: boolean;
}

export interface ModelOp {
  readonly id: string;
  status: string;
  /** Confirmed writes: position → (before, after). */
  readonly written: Map<string, { before: string; after: string }>;
  undoable: boolean;
  /** The undo operation that reversed it, once one was applied. */
  undoneBy: string | null;
  /** For recovery: every position the unfinished operation may have written. */
  mask: ModelWrite[];
  /** The part of `mask` from the slice whose result was never confirmed. */
  unfinished: ModelWrite[];
  /** For an undo: the operation it reversed. */
  undoOf?: ModelOp;
}

/** A named part: the blocks an operation confirmed, minus what undos restored and others took over. */
export interface ModelPart {
  readonly name: string;
  /** The operations that built it: the one that named it, then each that grew it (part_name of an active part). */
  readonly ops: string[];
  keys: Set<string>;
  /** Blocks it took over, by the part it took them from. */
  readonly takenFrom: { readonly from: ModelPart; readonly keys: ReadonlySet<string> }[];
}

/** A change the engine knows of: a confirmed write, a pulled external edit, or (null) an uncertain one. */
export interface ModelChange {
  readonly key: string;
  readonly state: string | null;
  readonly at: number;
  /** A person's edit (an event the engine pulled): it counts whatever state it left. */
  readonly person?: boolean;
}

export interface Model {
  readonly world: Map<string, string>;
  /** G0: what our newest confirmed write (or an abandoned recovery's accepted state) left at a position. */
  readonly g0: Map<string, string>;
  /** Positions a person changed (an event the engine pulled) after our newest write there. */
  readonly touched: Set<string>;
  /** The invariant's witness: positions whose last change was a person's (with or without an event), and what they left. */
  readonly hand: Map<string, string>;
  /** Operation allowed to undo the block, or null once something else touched it. */
  readonly owner: Map<string, string | null>;
  /** External edits (with an event) that the engine has not pulled yet, in order. */
  readonly unsynced: { readonly key: string; readonly state: string }[];
  /** Every change the engine's journal knows of, with a logical time. */
  readonly history: ModelChange[];
  clock: number;
  readonly plans: ModelPlan[];
  readonly ops: ModelOp[];
  /** Every part named so far (retired ones have no keys). */
  readonly parts: ModelPart[];
  /** Operation awaiting recovery review (no new writes until it is abandoned). */
  pending: ModelOp | null;
  keys: number;
  /** Outcome counters, to show which behaviours a run exercised. */
  readonly stats: Map<string, number>;
}

export function note(m: Model, outcome: string): void {
  m.stats.set(outcome, (m.stats.get(outcome) ?? 0) + 1);
}

export function emptyModel(stats: Map<string, number> = new Map()): Model {
  const world = new Map<string, string>();
  for (const p of ARENA) world.set(key(p), "minecraft:air");
  return {
    world,
    g0: new Map(),
    touched: new Set(),
    hand: new Map(),
    owner: new Map(),
    unsynced: [],
    history: [],
    clock: 0,
    plans: [],
    ops: [],
    parts: [],
    pending: null,
    keys: 0,
    stats,
  };
}

/** The engine pulls external events: each revokes undo ownership of its block, marks it a person's, and is remembered. */
export function sync(m: Model): void {
  for (const e of m.unsynced) {
    m.owner.set(e.key, null);
    m.touched.add(e.key);
    m.history.push({ key: e.key, state: e.state, at: ++m.clock, person: true });
  }
  m.unsynced.length = 0;
}

/** A confirmed write of ours (a build, an undo): the new G0 there, no longer a person's block. */
export function ours(m: Model, key: string, state: string): void {
  m.g0.set(key, state);
  m.touched.delete(key);
  m.hand.delete(key);
}

/** The three-way merge at preparation, in model terms (see `mergeOutcome` in the engine). */
export function mergeAt(m: Model, key: string, g1: string): "unchanged" | "write" | "kept" | "conflict" {
  const c = m.world.get(key)!;
  if (c === g1) return "unchanged";
  const g0 = m.g0.get(key);
  const touched = m.touched.has(key);
  if (!touched && (g0 === undefined || c === g0)) return "write";
  return g0 !== undefined && g1 === g0 ? "kept" : "conflict";
}

/** `person`: the block counts as a person's from now on (an edit, or an administrator's acceptance of a foreign block). */
export function remember(m: Model, key: string, state: string | null, person = false): void {
  m.history.push({ key, state, at: ++m.clock, ...(person ? { person: true } : {}) });
}

/**
 * The plan's base at `w` is stale: since preparation a person edited the block (whatever state it
 * left), or the journal saw it hold another state (or an uncertain one), even if it is back at the
 * base now. The engine refuses to write there.
 */
export function changedSincePrepare(m: Model, plan: ModelPlan, w: ModelWrite): boolean {
  return m.history.some((c) => c.key === w.key && c.at > plan.preparedAt && (c.person === true || c.state !== w.before));
}

export function nextKey(m: Model): string {
  return `key-${++m.keys}`;
}

/** The world must equal the model everywhere in the arena (nothing lost, nothing blindly overwritten). */
export function assertWorld(m: Model, h: Harness): void {
  for (const p of ARENA) {
    const actual = h.world.stateAt(p.x, p.y, p.z);
    const expected = m.world.get(key(p));
    if (actual !== expected) throw new Error(`world diverged at ${key(p)}: engine world has ${actual}, model ${expected}`);
  }
}

export function expectEqual(what: string, actual: unknown, expected: unknown): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: got ${a}, model expects ${e}`);
}

export function expectError(what: string, r: { ok: boolean; error?: { code: string; details?: unknown } }, code: string): void {
  if (r.ok) throw new Error(`${what}: succeeded, model expects ${code}`);
  expectEqual(`${what} error`, r.error?.code, code);
}
