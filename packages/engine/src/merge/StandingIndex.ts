import type { OperationJournal, TouchJournal, IndexJournal } from "../store/Journal.js";
import { operationPlans } from "./Ownership.js";
import type { Held } from "./ManualEdits.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import type { Box3 } from "@mcb/blocks";

/** Bit set in an entry when a person changed the block after our newest write there. */
export const TOUCHED = 0x4000_0000;
const ID = TOUCHED - 1;
/** Sections kept decoded in memory (16 KiB each); the journal holds all of them. */
const CACHE_SECTIONS = 1024;
const EVERYWHERE: Box3 = { minX: -(2 ** 31), minY: -(2 ** 31), minZ: -(2 ** 31), maxX: 2 ** 31, maxY: 2 ** 31, maxZ: 2 ** 31 };

export function sectionKey(cx: number, cy: number, cz: number): string {
  return `${cx},${cy},${cz}`;
}

function offsetOf(x: number, y: number, z: number): number {
  return ((y & 15) << 8) | ((z & 15) << 4) | (x & 15);
}

/**
 * The per-position index of our standing writes (the G0 of the three-way merge), kept by the
 * journal. For every position it holds one 32-bit entry: the (state, digest) our newest confirmed
 * write left there (undo operations included: an undo's write is the newest, so an undone block's
 * G0 is what the undo restored), or none; and the `TOUCHED` bit, set by a later observed external
 * edit and cleared by our next write. A `baseline` touch (an abandoned recovery's accepted state)
 * replaces the entry with that state, untouched.
 *
 * Derived data: it is folded from the journal's confirmed slices and touches in sequence order
 * (`catchUp`, before every use) and saved with the sequence it reached, so a restart folds only
 * what is newer, and a journal from before the index folds its whole history once.
 */
export class StandingIndex {
  private seq: number;
  private readonly entryValues: string[] = [];
  private readonly ids = new Map<string, number>();
  private saved: number;
  /** Decoded sections, least recently used first. */
  private readonly cache = new Map<string, Uint32Array>();
  private readonly dirty = new Set<string>();
  private readonly stateIds = new WeakMap<PreparedPlan, Int32Array>();
  private readonly operationPlan: (operationId: string) => PreparedPlan;

  constructor(
    private readonly journal: OperationJournal & TouchJournal & IndexJournal,
    plans: (planId: string) => PreparedPlan,
  ) {
    this.seq = 0;
    this.saved = 0;
    this.load();
    this.operationPlan = operationPlans(journal, plans);
  }

  /** (Re)loads the stored index, dropping everything decoded: another process may have saved it. */
  private load(): void {
    const head = this.journal.indexHead();
    this.seq = head.seq;
    this.entryValues.length = 0;
    this.entryValues.push(...head.entries);
    this.ids.clear();
    this.entryValues.forEach((e, i) => this.ids.set(e, i + 1));
    this.saved = this.entryValues.length;
    this.cache.clear();
    this.dirty.clear();
    this.last = null;
  }

  /**
   * Folds every journal record newer than the index into it, and saves it durably. When another
   * process sharing the journal saved the index first (the save's compare-and-set fails), what was
   * folded here is dropped and the stored index is loaded and caught up instead.
   */
  catchUp(): void {
    while (!this.foldAndSave()) this.load();
  }

  private foldAndSave(): boolean {
    const head = this.journal.headSeq();
    if (head <= this.seq) return true;
    const from = this.seq;
    const slices = this.journal.slicesAfter(this.seq, EVERYWHERE);
    const t = this.journal.touchesAfter(this.seq, EVERYWHERE);
    let k = 0;
    const touchesBefore = (seq: number): void => {
      for (; k < t.kinds.length && t.quads[k * 4]! < seq; k++) {
        const x = t.quads[k * 4 + 1]!,
          y = t.quads[k * 4 + 2]!,
          z = t.quads[k * 4 + 3]!;
        const state = t.states[k]!;
        if (t.kinds[k] === 1) this.set(x, y, z, state === null ? TOUCHED : this.idOf(state, null));
        else this.set(x, y, z, (this.entryAt(x, y, z) | TOUCHED) >>> 0);
      }
    };
    for (const s of slices) {
      touchesBefore(s.seq);
      if (s.written === null) continue;
      const plan = this.operationPlan(s.operationId);
      const ids = this.planStateIds(plan);
      const digests = s.entityDigests.length === 0 ? null : new Map(s.entityDigests);
      const pos = plan.pos;
      for (let off = 0; off < s.end - s.start; off++) {
        if ((s.written[off >> 3]! & (1 << (off & 7))) === 0) continue;
        const i = s.start + off;
        const a = plan.after[i]!;
        const digest = digests?.get(off);
        let id = ids[a]!;
        if (digest !== undefined) id = this.idOf(plan.states[a]!, digest);
        else if (id === 0) id = ids[a] = this.idOf(plan.states[a]!, null);
        this.set(pos[i * 3]!, pos[i * 3 + 1]!, pos[i * 3 + 2]!, id);
      }
    }
    touchesBefore(Infinity);
    this.seq = head;
    this.last = null;
    return this.flush(from);
  }

  /** The entries of (x, y, z) triples, in order (0: nothing of ours, never touched). */
  entries(pos: Int32Array): Uint32Array {
    const n = pos.length / 3;
    const out = new Uint32Array(n);
    const local = new Map<string, Uint32Array | null>();
    const missing: string[] = [];
    let lx = NaN,
      ly = NaN,
      lz = NaN;
    for (let i = 0; i < n; i++) {
      const cx = pos[i * 3]! >> 4,
        cy = pos[i * 3 + 1]! >> 4,
        cz = pos[i * 3 + 2]! >> 4;
      if (cx === lx && cy === ly && cz === lz) continue;
      lx = cx;
      ly = cy;
      lz = cz;
      const key = sectionKey(cx, cy, cz);
      if (local.has(key)) continue;
      const s = this.cache.get(key);
      local.set(key, s ?? null);
      if (s === undefined) missing.push(key);
    }
    if (missing.length > 0) {
      const loaded = this.journal.indexSections(missing);
      for (const [key, s] of loaded) {
        local.set(key, s);
        this.remember(key, s);
      }
    }
    let section: Uint32Array | null = null;
    lx = ly = lz = NaN;
    for (let i = 0; i < n; i++) {
      const x = pos[i * 3]!,
        y = pos[i * 3 + 1]!,
        z = pos[i * 3 + 2]!;
      const cx = x >> 4,
        cy = y >> 4,
        cz = z >> 4;
      if (cx !== lx || cy !== ly || cz !== lz) {
        section = local.get(sectionKey(cx, cy, cz)) ?? null;
        lx = cx;
        ly = cy;
        lz = cz;
      }
      if (section !== null) out[i] = section[offsetOf(x, y, z)]!;
    }
    return out;
  }

  entryAt(x: number, y: number, z: number): number {
    const s = this.section(sectionKey(x >> 4, y >> 4, z >> 4), false);
    return s === null ? 0 : s[offsetOf(x, y, z)]!;
  }

  /** G0 of an entry: the block our newest standing write left (null: none). */
  standing(entry: number): Held | null {
    const id = entry & ID;
    if (id === 0) return null;
    if (id > this.entryValues.length) this.extendEntries();
    const value = this.entryValues[id - 1];
    if (value === undefined) throw new Error(`standing-write index: entry ${id} is not in the journal`);
    const cut = value.indexOf("\u0000");
    return cut < 0 ? { state: value, digest: null } : { state: value.slice(0, cut), digest: value.slice(cut + 1) };
  }

  /**
   * A section read from the journal after another process saved the index holds entries interned
   * there. Saves are compare-and-set on the index's sequence, so the stored entry table only grows
   * and ours (all saved, outside a fold) is a prefix of it: its tail is appended as it is.
   */
  private extendEntries(): void {
    if (this.saved !== this.entryValues.length) throw new Error("standing-write index: unsaved entries while reading");
    const stored = this.journal.indexHead().entries;
    for (let i = this.entryValues.length; i < stored.length; i++) {
      this.entryValues.push(stored[i]!);
      this.ids.set(stored[i]!, i + 1);
    }
    this.saved = this.entryValues.length;
  }

  private idOf(state: string, digest: string | null): number {
    const value = digest === null ? state : `${state}\u0000${digest}`;
    let id = this.ids.get(value);
    if (id === undefined) {
      this.entryValues.push(value);
      id = this.entryValues.length;
      if (id > ID) throw new Error("standing-write index: too many distinct entries");
      this.ids.set(value, id);
    }
    return id;
  }

  private planStateIds(plan: PreparedPlan): Int32Array {
    let ids = this.stateIds.get(plan);
    if (ids === undefined) {
      ids = new Int32Array(plan.states.length);
      this.stateIds.set(plan, ids);
    }
    return ids;
  }

  /** The section `set` wrote last (positions come in runs: most writes stay in it). */
  private last: { cx: number; cy: number; cz: number; data: Uint32Array } | null = null;

  private set(x: number, y: number, z: number, entry: number): void {
    const cx = x >> 4,
      cy = y >> 4,
      cz = z >> 4;
    let l = this.last;
    if (l === null || l.cx !== cx || l.cy !== cy || l.cz !== cz) {
      const key = sectionKey(cx, cy, cz);
      l = this.last = { cx, cy, cz, data: this.section(key, true)! };
      this.dirty.add(key);
    }
    l.data[offsetOf(x, y, z)] = entry;
  }

  /** A section from the cache or the journal; with `create`, an empty one when there is none. */
  private section(key: string, create: boolean): Uint32Array | null {
    let s = this.cache.get(key);
    if (s !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, s);
      return s;
    }
    s = this.journal.indexSections([key]).get(key);
    if (s === undefined) {
      if (!create) return null;
      s = new Uint32Array(4096);
    }
    this.remember(key, s);
    return s;
  }

  private remember(key: string, s: Uint32Array): void {
    this.cache.set(key, s);
    if (this.cache.size <= CACHE_SECTIONS) return;
    for (const k of this.cache.keys()) {
      if (this.cache.size <= CACHE_SECTIONS) break;
      if (!this.dirty.has(k)) this.cache.delete(k);
    }
  }

  private flush(from: number): boolean {
    const sections = new Map<string, Uint32Array>();
    for (const key of this.dirty) sections.set(key, this.cache.get(key)!);
    if (!this.journal.saveIndex(from, this.seq, this.entryValues.slice(this.saved), sections)) return false;
    this.saved = this.entryValues.length;
    this.dirty.clear();
    return true;
  }
}
