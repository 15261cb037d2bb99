import { ConnectionRules, DIRS, STEP, type At, type Dir } from "./ConnectionRules.js";
import { isChunkNotLoaded, type WorldAdapter } from "../world/WorldAdapter.js";
import { readPositions, type RefusalSink } from "../world/WorldReader.js";
import { boundsOf } from "@mcb/blocks";

/** "auto": connections computed from neighbours (recipes); "pinned": states as written (schematics, terrain). */
export type ConnectionMode = "auto" | "pinned";

export interface NeighbourUpdate {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly before: string;
  readonly digest: string | null;
  readonly after: string;
}

export interface ConnectionResult {
  /** Desired state per plan position, connections applied. */
  readonly desired: readonly string[];
  /** Existing blocks next to the plan whose connections change with it, sorted by (y, z, x). */
  readonly neighbours: readonly NeighbourUpdate[];
  readonly notes: readonly string[];
}

const SAMPLE = 4;

/**
 * Numeric keys of positions in and around a plan's box, with the two blocks of margin the rings
 * need: exact below 2^53, which holds for any box of a project area (coordinates are bounded).
 */
function keyer(pos: Int32Array): { key: (x: number, y: number, z: number) => number; unkey: (k: number) => [number, number, number]; volume: number } {
  const b = boundsOf(pos) ?? { minX: 0, minY: 0, minZ: 0, maxX: 0, maxY: 0, maxZ: 0 };
  const sx = b.maxX - b.minX + 5,
    sz = b.maxZ - b.minZ + 5;
  const ox = b.minX - 2,
    oy = b.minY - 2,
    oz = b.minZ - 2;
  return {
    key: (x, y, z) => ((y - oy) * sz + (z - oz)) * sx + (x - ox),
    unkey: (k) => [ox + (k % sx), oy + Math.floor(k / (sx * sz)), oz + (Math.floor(k / sx) % sz)],
    volume: sx * sz * (b.maxY - b.minY + 5),
  };
}

/** Plan index by key: a dense table for compact plans (≤ 2^24 keys, 64 MiB), else a map. */
function planIndex(pos: Int32Array, key: (x: number, y: number, z: number) => number, volume: number): (k: number) => number {
  const n = pos.length / 3;
  if (volume <= 2 ** 24) {
    const table = new Int32Array(volume).fill(-1);
    for (let i = 0; i < n; i++) table[key(pos[i * 3]!, pos[i * 3 + 1]!, pos[i * 3 + 2]!)] = i;
    return (k) => (k >= 0 && k < volume ? table[k]! : -1);
  }
  const map = new Map<number, number>();
  for (let i = 0; i < n; i++) map.set(key(pos[i * 3]!, pos[i * 3 + 1]!, pos[i * 3 + 2]!), i);
  return (k) => map.get(k) ?? -1;
}

const where = (list: readonly { x: number; y: number; z: number }[]): string =>
  list
    .slice(0, SAMPLE)
    .map((p) => `${p.x} ${p.y} ${p.z}`)
    .join(", ") + (list.length > SAMPLE ? ` and ${list.length - SAMPLE} more` : "");

/**
 * Connection states at preparation (the game computes them on placement): fences, panes and bars,
 * walls and stairs of the plan join their neighbours — other plan blocks and the world as it is —
 * and existing such blocks next to the plan join it back (only their sides facing the plan, as the
 * game's neighbour update does; their other sides stay). `mayWrite` says why an existing block may
 * not be changed (outside the area or part), or null. "pinned" changes nothing and reports the
 * plan's connectables whose written states do not match their neighbours.
 *
 * Positions `pos` are the plan's desired positions sorted by (y, z, x); `desired` their states.
 * Reads: the neighbours of the plan (one ring, then the ring of the existing connectables found).
 */
export async function planConnections(
  rules: ConnectionRules,
  adapter: WorldAdapter,
  pos: Int32Array,
  desired: readonly string[],
  mode: ConnectionMode,
  mayWrite: (x: number, y: number, z: number) => string | null,
  sink?: RefusalSink,
): Promise<ConnectionResult> {
  const n = desired.length;
  const ours: number[] = [];
  for (let i = 0; i < n; i++) {
    const k = rules.kind(desired[i]);
    if (k !== null && k !== "gate") ours.push(i);
  }
  if (mode === "pinned" && ours.length === 0) return { desired, neighbours: [], notes: [] };

  const { key, unkey, volume } = keyer(pos);
  const index = planIndex(pos, key, volume);
  const indexIn = (x: number, y: number, z: number): number => index(key(x, y, z));
  const world = new Map<number, { state: string; digest: string | null }>();
  const want = new Set<number>();
  const ask = (x: number, y: number, z: number): void => {
    const k = key(x, y, z);
    if (index(k) < 0 && !world.has(k)) want.add(k);
  };
  // Neighbours in chunks the world does not have (a save's unexplored land past the edge of a
  // build): nothing there to join, and nothing to write; they are named in a note.
  const absent = new Map<string, number>();
  const readWanted = async (): Promise<void> => {
    while (want.size > 0) {
      const keys = [...want];
      const triples = new Int32Array(keys.length * 3);
      keys.forEach((k, i) => triples.set(unkey(k), i * 3));
      let r: Awaited<ReturnType<typeof readPositions>>;
      try {
        r = await readPositions(adapter, triples, 0, triples.length / 3, sink);
      } catch (e) {
        if (!isChunkNotLoaded(e) || e.retryable || e.chunk === null) throw e;
        const { x: cx, z: cz } = e.chunk;
        const left = keys.filter((k) => {
          const [x, , z] = unkey(k);
          return x >> 4 !== cx || z >> 4 !== cz;
        });
        if (left.length === keys.length) throw e; // not one of ours: a real failure
        absent.set(`${cx},${cz}`, keys.length - left.length);
        sink?.set(`${cx},${cz}`, { chunk: { x: cx, z: cz }, code: "out_of_bounds", message: e.message, details: { reason: "chunk_not_generated" } });
        want.clear();
        for (const k of left) want.add(k);
        continue;
      }
      keys.forEach((k, i) => world.set(k, { state: r.states[i]!, digest: r.digests[i]! }));
      want.clear();
    }
  };
  // Ring 1: around our connectables (their sides, and above a wall); in auto mode around every
  // plan position (existing connectables there join the plan; a wall below may turn tall).
  const ring = (i: number): void => {
    const x = pos[i * 3]!,
      y = pos[i * 3 + 1]!,
      z = pos[i * 3 + 2]!;
    ask(x, y, z - 1);
    ask(x + 1, y, z);
    ask(x, y, z + 1);
    ask(x - 1, y, z);
    ask(x, y + 1, z);
    if (mode === "auto") ask(x, y - 1, z);
  };
  if (mode === "auto") for (let i = 0; i < n; i++) ring(i);
  else ours.forEach(ring);
  await readWanted();

  const current = [...desired];
  const overrides = new Map<number, string>();
  const at: At = (x, y, z) => {
    const k = key(x, y, z);
    const i = index(k);
    if (i >= 0) return current[i];
    return overrides.get(k) ?? world.get(k)?.state;
  };

  // Our walls top-down, so a wall's height sees the final state of the wall above it.
  const order = [...ours].sort((a, b) => pos[b * 3 + 1]! - pos[a * 3 + 1]!);
  const notes: string[] = [];
  if (mode === "pinned") {
    const computed = order.map((i) => rules.connect(desired[i]!, pos[i * 3]!, pos[i * 3 + 1]!, pos[i * 3 + 2]!, at));
    const off = order.filter((i, k) => computed[k] !== desired[i]).map((i) => ({ x: pos[i * 3]!, y: pos[i * 3 + 1]!, z: pos[i * 3 + 2]! }));
    if (off.length > 0)
      notes.push(
        `connections pinned: ${off.length} fences, panes, walls or stairs keep their written states although their neighbours differ (at ${where(off)}); a recipe with "connections": "auto" computes them`,
      );
    return { desired, neighbours: [], notes };
  }

  // Existing connectables next to the plan: the sides facing it (walls: also their heights and post).
  const candidates: { x: number; y: number; z: number; state: string; digest: string | null; sides: Set<Dir> }[] = [];
  for (const [k, v] of world) {
    const kind = rules.kind(v.state);
    if (kind === null || kind === "gate") continue;
    const [x, y, z] = unkey(k);
    const sides = new Set(DIRS.filter((d) => indexIn(x + STEP[d][0], y, z + STEP[d][1]) >= 0));
    const above = indexIn(x, y + 1, z) >= 0;
    if (sides.size === 0 && !(kind === "wall" && above)) continue;
    candidates.push({ x, y, z, state: v.state, digest: v.digest, sides });
  }
  for (const c of candidates) {
    for (const d of DIRS) ask(c.x + STEP[d][0], c.y, c.z + STEP[d][1]);
    ask(c.x, c.y + 1, c.z);
  }
  await readWanted();

  // One pass over our connectables and the existing ones together, top-down: a wall's height
  // depends on the final state of the block above it, whether that block is ours or an existing
  // neighbour that joins the plan back (sides depend only on the neighbours' kinds).
  type Step = { y: number; ours: number } | { y: number; ours: -1; c: (typeof candidates)[number] };
  const steps: Step[] = [...order.map((i) => ({ y: pos[i * 3 + 1]!, ours: i })), ...candidates.map((c) => ({ y: c.y, ours: -1 as const, c }))];
  steps.sort((a, b) => b.y - a.y);
  const neighbours: NeighbourUpdate[] = [];
  const blocked: { x: number; y: number; z: number }[] = [];
  for (const step of steps) {
    if (step.ours >= 0) {
      const i = step.ours;
      current[i] = rules.connect(desired[i]!, pos[i * 3]!, pos[i * 3 + 1]!, pos[i * 3 + 2]!, at);
      continue;
    }
    const c = (step as { c: (typeof candidates)[number] }).c;
    const after = rules.connect(c.state, c.x, c.y, c.z, at, c.sides);
    if (after === c.state) continue;
    if (mayWrite(c.x, c.y, c.z) !== null) {
      blocked.push(c);
      continue;
    }
    overrides.set(key(c.x, c.y, c.z), after);
    neighbours.push({ x: c.x, y: c.y, z: c.z, before: c.state, digest: c.digest, after });
  }
  neighbours.sort((a, b) => a.y - b.y || a.z - b.z || a.x - b.x);

  const changed = order.filter((i) => current[i] !== desired[i]).length;
  if (changed > 0 || neighbours.length > 0)
    notes.push(
      `connections: ${changed} fences, panes, walls or stairs joined their neighbours${neighbours.length > 0 ? `; ${neighbours.length} existing ones next to the plan join it back (at ${where(neighbours)})` : ""}`,
    );
  const lone = order.filter((i) => rules.isLonePost(current[i]!)).map((i) => ({ x: pos[i * 3]!, y: pos[i * 3 + 1]!, z: pos[i * 3 + 2]! }));
  if (lone.length > 0) notes.push(`connections: ${lone.length} fences, panes or walls have nothing to join and stand as lone posts (at ${where(lone)})`);
  if (blocked.length > 0)
    notes.push(
      `connections: ${blocked.length} existing neighbours would join the plan but lie outside what it may write (at ${where(blocked)}); they stay unconnected`,
    );
  if (absent.size > 0)
    notes.push(
      `the plan borders ${absent.size} chunk${absent.size === 1 ? "" : "s"} the world does not have (${[...absent.keys()].slice(0, SAMPLE).join("; ")}): nothing there to join, and nothing written there; the game generates ${absent.size === 1 ? "it" : "them"} when a player comes near`,
    );
  return { desired: current, neighbours, notes };
}

/**
 * A person's placement as the game makes it (`mcb edit`): the placed blocks (positions `pos`
 * sorted by (y, z, x), states `states`) joined to their neighbours, and the existing fences,
 * panes, walls and stairs around them joined back on the sides facing them, wherever they are
 * (the game updates every neighbour). Reads the world around the placement; writes nothing.
 */
export async function connectPlacement(
  rules: ConnectionRules,
  adapter: WorldAdapter,
  pos: Int32Array,
  states: readonly string[],
): Promise<{ readonly placed: readonly string[]; readonly neighbours: readonly NeighbourUpdate[] }> {
  const r = await planConnections(rules, adapter, pos, states, "auto", () => null);
  return { placed: r.desired, neighbours: r.neighbours };
}
