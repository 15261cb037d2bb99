import { fail, mcbError, ok, type Result, type Vec3 } from "@mcb/blocks";
import { ConnectionRules, connectPlacement } from "@mcb/engine";
import type { Workspace } from "../world/Workspace.js";

/** A person's edit of the embedded world: every block of the inclusive box set to `state`. */
export interface PersonEditRequest {
  readonly min: Vec3;
  readonly max: Vec3;
  readonly state: string;
  /** Write `state` literally; default: as the game places it (fences, panes, bars, walls, stairs join their neighbours). */
  readonly exact?: boolean;
}

export interface PersonEditReport {
  readonly min: Vec3;
  readonly max: Vec3;
  /** The canonical state asked for. */
  readonly state: string;
  /** The states written, distinct, in order (the asked one joined to its neighbours as the game places it; at most 8). */
  readonly placed: readonly string[];
  readonly blocks: number;
  /** Blocks that held something else before. */
  readonly changed: number;
  /** Placed blocks whose connections (sides, wall heights and posts, stair corners) the game gave them differ from `state`. */
  readonly joined: number;
  /** Existing fences, panes, walls and stairs next to the edit that joined it (the game's neighbour update). */
  readonly neighbours_updated: number;
}

/** Most blocks one edit may change (a person's fill, not a build). */
export const MAX_PERSON_EDIT = 100_000;
/** Blocks changed between two pulls of the world's events (well under its event retention). */
const CHUNK = 4096;

function isVec(v: unknown): v is Vec3 {
  return typeof v === "object" && v !== null && [(v as Vec3).x, (v as Vec3).y, (v as Vec3).z].every((n) => Number.isSafeInteger(n));
}

/** The refusal of a person's edit anywhere but the embedded world (a save or a server is edited in the game). */
export function notEmbedded(): Result<never> {
  return fail(
    mcbError("invalid_request", "mcb edit changes the embedded world as a person would; on a server, edit in the game (the host reports players' edits)", {
      reason: "not_embedded",
    }),
  );
}

/**
 * Changes blocks of the embedded world as a player would by hand: not an operation of ours (no
 * plan, no journal record, never undone by us), but an observed external edit — the world reports
 * it as an event and the engine pulls it at once, so the three-way merge, part_diff and
 * region_changes see it as the person's. As the game places blocks, fences, panes, bars, walls
 * and stairs take the connections their neighbours give them, and the neighbours join them back
 * (the game's rules: see `ConnectionRules`); `exact` writes the state as given. Checked first (the embedded world, a valid block state,
 * the project area and the world height, at most `MAX_PERSON_EDIT` blocks); a refused edit changes
 * nothing. Errors: invalid_request, unsupported_block, out_of_bounds, budget_exceeded.
 */
export async function applyPersonEdit(w: Workspace, request: unknown): Promise<Result<PersonEditReport>> {
  const memory = w.embedded;
  if (memory === null) return notEmbedded();
  const r = request as Partial<PersonEditRequest> | null;
  if (typeof r !== "object" || r === null || !isVec(r.min) || !isVec(r.max) || typeof r.state !== "string")
    return fail(mcbError("invalid_request", "an edit needs integer corners min and max {x, y, z} and a block state", { reason: "edit" }));
  const state = w.registry.resolveState(r.state);
  if (!state.ok) return state;
  const min = { x: Math.min(r.min.x, r.max.x), y: Math.min(r.min.y, r.max.y), z: Math.min(r.min.z, r.max.z) };
  const max = { x: Math.max(r.min.x, r.max.x), y: Math.max(r.min.y, r.max.y), z: Math.max(r.min.z, r.max.z) };
  const volume = (max.x - min.x + 1) * (max.y - min.y + 1) * (max.z - min.z + 1);
  if (volume > MAX_PERSON_EDIT)
    return fail(mcbError("budget_exceeded", `the edit covers ${volume} blocks; at most ${MAX_PERSON_EDIT}`, { limit: MAX_PERSON_EDIT, count: volume }));
  const scope = w.engine.projectScope(w.ctx);
  if (!scope.ok) return scope;
  const info = await w.world.info();
  const a = scope.value.area;
  const inside =
    min.x >= a.minX && max.x <= a.maxX && min.z >= a.minZ && max.z <= a.maxZ && min.y >= Math.max(a.minY, info.minY) && max.y <= Math.min(a.maxY, info.maxY);
  if (!inside)
    return fail(
      mcbError("out_of_bounds", "the edit reaches outside the project area or the world height", {
        area: { min: { x: a.minX, y: Math.max(a.minY, info.minY), z: a.minZ }, max: { x: a.maxX, y: Math.min(a.maxY, info.maxY), z: a.maxZ } },
      }),
    );
  const canonical = state.value.canonical;
  const pos = new Int32Array(volume * 3);
  let k = 0;
  for (let y = min.y; y <= max.y; y++) for (let z = min.z; z <= max.z; z++) for (let x = min.x; x <= max.x; x++) pos.set([x, y, z], 3 * k++);
  const literal = new Array<string>(volume).fill(canonical);
  const placement = r.exact === true ? { placed: literal, neighbours: [] } : await connectPlacement(new ConnectionRules(w.registry), memory, pos, literal);
  let changed = 0;
  let batch: { x: number; y: number; z: number; state: string }[] = [];
  const flush = async (): Promise<Result<void>> => {
    if (batch.length === 0) return ok(undefined);
    memory.externalEdits(batch);
    batch = [];
    return w.engine.sync(); // on record at once, before the world's event log could drop it
  };
  const edits = [
    ...placement.placed.map((s, i) => ({ x: pos[i * 3]!, y: pos[i * 3 + 1]!, z: pos[i * 3 + 2]!, state: s })),
    ...placement.neighbours.map((n) => ({ x: n.x, y: n.y, z: n.z, state: n.after })),
  ];
  for (let i = 0; i < edits.length; i++) {
    const e = edits[i]!;
    if (i < volume && memory.stateAt(e.x, e.y, e.z) !== e.state) changed++;
    batch.push(e);
    if (batch.length >= CHUNK) {
      const synced = await flush();
      if (!synced.ok) return synced;
    }
  }
  const synced = await flush();
  if (!synced.ok) return synced;
  const joined = placement.placed.filter((s) => s !== canonical).length;
  const placed = [...new Set(placement.placed)].slice(0, 8);
  return ok({ min, max, state: canonical, placed, blocks: volume, changed, joined, neighbours_updated: placement.neighbours.length });
}
